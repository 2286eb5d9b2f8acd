// Many numbers written as text at once, for Python in the page's worker: what
// pellucid.tabular.cells.format_number writes for each float64, one per line. Python's own repr costs
// about a microsecond a number in Pyodide; an exported CSV of 50,000 rows holds millions of them.
//
// Both languages write the shortest digits that read back as the same float64 (ECMAScript's
// Number::toString: the closest of those digits, the even one on a tie; Python's repr: the correctly
// rounded shortest), and differ only in layout, which numberText rearranges from the browser's text:
// Python writes 1e-4 <= |x| < 1e16 positionally (a whole number without ".0"; format_number's rule) and
// everything else as d.ddde-XX with at least two exponent digits, where JavaScript switches at 1e-6 and 1e21.
// tests/pyodide/test_number_text.py holds the two to the same text, character for character.

// The text of x as format_number writes it; `missing` for NaN.
export function numberText(x, missing = "") {
  if (x !== x) return missing;
  const size = Math.abs(x);
  if ((size >= 1e-4 && size < 1e16) || size === 0) return String(x);
  if (size === Infinity) return x > 0 ? "inf" : "-inf";
  return scientific(String(x));
}

// Python's d.ddde+XX from JavaScript's text of the same number, in whichever form JavaScript chose.
function scientific(text) {
  const sign = text[0] === "-" ? "-" : "";
  const body = sign ? text.slice(1) : text;
  let digits;
  let exponent;
  const e = body.indexOf("e");
  if (e >= 0) {  // 1.5e-7, 1e+21
    digits = body.slice(0, e).replace(".", "");
    exponent = Number(body.slice(e + 1));
  } else if (body.startsWith("0.")) {  // 0.000015: below 1e-4
    const fraction = body.slice(2);
    const zeros = fraction.length - fraction.replace(/^0+/, "").length;
    digits = fraction.slice(zeros);
    exponent = -(zeros + 1);
  } else {  // 12345000000000000000: a whole number from 1e16
    digits = body.replace(/0+$/, "");
    exponent = body.length - 1;
  }
  const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  const power = String(Math.abs(exponent)).padStart(2, "0");
  return `${sign}${mantissa}e${exponent < 0 ? "-" : "+"}${power}`;
}

// The texts of every value, one per line.
export function numbersText(values, missing = "") {
  const lines = new Array(values.length);
  for (let i = 0; i < values.length; i++) lines[i] = numberText(values[i], missing);
  return lines.join("\n");
}

// What the worker registers for Python (globalThis.pellucidKernels.numberText): the `count` float64 values
// at `address` in Python's memory (`pythonMemory()` gives its current buffer, which moves when it grows)
// written as numbersText writes them, as UTF-8 into the `capacity` bytes at `outAddress`; returns how many
// bytes it wrote. Bytes, not a string: Pyodide turns a JavaScript string of tens of MB into Python's in
// about twice the time the numbers took to write.
export function numberTextKernel(pythonMemory) {
  const encoder = new TextEncoder();
  return (address, count, missing, outAddress, capacity) => {
    const text = numbersText(new Float64Array(pythonMemory(), address, count), missing);
    const { read, written } = encoder.encodeInto(text, new Uint8Array(pythonMemory(), outAddress, capacity));
    if (read !== text.length) throw new RangeError(`${text.length} characters do not fit in ${capacity} bytes`);
    return written;
  };
}
