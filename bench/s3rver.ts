import type { AddressInfo } from "node:net";
import S3rver from "s3rver";

/** A test S3 (bucket "castline", objects under the folder given) in a process of its own; prints its URL. */
const s3 = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory: process.argv[2], configureBuckets: [{ name: "castline", configs: [] }] });
s3.run().then((address) => console.log(`listening on http://127.0.0.1:${(address as AddressInfo).port}`));
