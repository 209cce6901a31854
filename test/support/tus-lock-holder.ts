import { PgLocker } from "@/lib/assets/upload/tus-locker";

/** Another app instance, reduced to this: takes a tus upload's lock, says so, and keeps it until killed. */
async function main() {
  const locker = new PgLocker(process.env.DATABASE_URL!);
  await locker.newLock(process.argv[2]).lock(new AbortController().signal, () => {});
  console.log("locked");
  setInterval(() => {}, 60_000);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
