"""k-means (notes 004): `kmeans` is the estimator, k-means++ seeding and Lloyd's assign/update steps as the
notes write them (the steps view's path); `kmeans_fast` is Lloyd's iterations fast. `lloyd` chooses, called
once per initialisation from `KMeans.fit`."""
