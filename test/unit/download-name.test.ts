import assert from "node:assert/strict";
import { test } from "node:test";
import { parse } from "content-disposition";
import { contentDisposition, downloadName } from "@/lib/api/download-name";

test("a download is named after its title, safe on every file system", () => {
  assert.equal(downloadName("Holiday: day 1.mov", "mp4"), "Holiday day 1.mp4");
  assert.equal(downloadName("holiday.mp4", "mp4", "720p"), "holiday 720p.mp4");
  assert.equal(downloadName('../../etc/"passwd"\r\n', "mp4"), ".. .. etc passwd.mp4");
  assert.equal(downloadName(" /// ", "mp4"), "video.mp4");
  assert.equal(downloadName("x".repeat(500), "mp4").length, 124);
});

test("names beyond ASCII travel as RFC 5987 filename*, with an ASCII fallback", () => {
  const header = contentDisposition("Café – 東京 live.mp4");
  assert.match(header, /^inline; filename="Cafe _ __ live\.mp4"; filename\*=UTF-8''Caf%C3%A9%20%E2%80%93%20%E6%9D%B1%E4%BA%AC%20live\.mp4$/);
  assert.equal(parse(header).parameters.filename, "Café – 東京 live.mp4");
  assert.equal(contentDisposition("Plain name.mp4"), 'inline; filename="Plain name.mp4"');
});
