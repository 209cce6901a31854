// hls.js ships its light build (no subtitles, alternate audio or DRM: live streams here need none
// of them) without its own typings; it has the full build's API.
declare module "hls.js/light" {
  export * from "hls.js";
  export { default } from "hls.js";
}
