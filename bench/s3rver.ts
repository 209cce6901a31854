import { startS3 } from "../test/support/s3";

/** A test S3 (bucket "castline", objects under the folder given) in a process of its own; prints its URL. */
startS3(process.argv[2]).then((s3) => console.log(`listening on ${s3.url}`));
