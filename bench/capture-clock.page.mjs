// In the bench's Chromium pages (bench/glass-to-glass.ts): the capture clock. A source draws the
// wall clock into its video as a barcode; a reader takes it back out of each frame it is shown,
// and the difference is glass to glass. Publisher and viewer share one machine, so one clock.
// Plain browser JavaScript, added to the page as it is (no bundler between).

/** The barcode's layout, set by bench/glass-to-glass.ts (CLOCK) before this script. */
const { bits: BITS, px: PX, sentinels: SENTINELS } = window.clockLayout;
const WRAP = 2 ** BITS;

/**
 * A 1280x720 30 fps source: a field of noise panning as a camera does (the encoder has real work in
 * every frame, and motion it can predict), the clock, and a 440 Hz tone as its sound.
 */
function source() {
  const canvas = Object.assign(document.createElement("canvas"), { width: 1280, height: 720 });
  const g = canvas.getContext("2d");
  g.imageSmoothingEnabled = false;
  const field = Object.assign(document.createElement("canvas"), { width: 320, height: 180 });
  const f = field.getContext("2d");
  const img = f.createImageData(320, 180);
  for (let i = 0; i < img.data.length; i += 4) {
    const v = 96 + Math.floor(Math.random() * 64);
    img.data.set([v, v, v, 255], i);
  }
  f.putImageData(img, 0, 0);
  let frame = 0;
  const draw = () => {
    // Two copies side by side, scaled 4x, moving 4 px a frame: a seamless pan.
    const x = -((frame++ * 4) % 1280);
    g.drawImage(field, x, 0, 1280, 720);
    g.drawImage(field, x + 1280, 0, 1280, 720);
    g.fillStyle = "#000";
    g.fillRect(0, 0, (BITS + SENTINELS.length + 1) * PX, PX * 2);
    const ms = Date.now() % WRAP;
    const squares = [...Array.from({ length: BITS }, (_, b) => (Math.floor(ms / 2 ** b) % 2 ? 255 : 0)), ...SENTINELS];
    squares.forEach((v, i) => {
      g.fillStyle = `rgb(${v},${v},${v})`;
      g.fillRect(i * PX, 0, PX, PX);
    });
  };
  draw();
  const timer = setInterval(draw, 1000 / 30);
  const audio = new AudioContext();
  const tone = audio.createOscillator();
  tone.frequency.value = 440;
  const out = audio.createMediaStreamDestination();
  tone.connect(out);
  tone.start();
  const stream = new MediaStream([...canvas.captureStream(30).getVideoTracks(), ...out.stream.getAudioTracks()]);
  return {
    stream,
    stop: () => {
      clearInterval(timer);
      audio.close();
    },
  };
}

/** The clock in the frame `video` shows now, or undefined when the frame holds no clean reading. */
function readFrame(video, g) {
  g.canvas.width = video.videoWidth;
  g.canvas.height = video.videoHeight;
  g.drawImage(video, 0, 0);
  const scale = video.videoWidth / 1280;
  const at = (i) => g.getImageData(Math.round((i * PX + PX / 2) * scale), Math.round((PX / 2) * scale), 1, 1).data[0];
  if (SENTINELS.some((v, i) => Math.abs(at(BITS + i) - v) > 64)) return undefined;
  let ms = 0;
  for (let b = 0; b < BITS; b++) if (at(b) > 128) ms += 2 ** b;
  return ms;
}

/** `count` glass-to-glass readings (ms) of the frames `video` presents, at least `gapMs` apart. */
function read(video, count, gapMs = 200) {
  const g = document.createElement("canvas").getContext("2d", { willReadFrequently: true });
  const readings = [];
  let last = 0;
  return new Promise((resolve, reject) => {
    const timeout = setTimeout(() => reject(new Error(`only ${readings.length} clock readings in ${count * gapMs + 30_000} ms`)), count * gapMs + 30_000);
    const onFrame = () => {
      const now = Date.now();
      if (now - last >= gapMs) {
        const ms = readFrame(video, g);
        if (ms !== undefined) {
          last = now;
          readings.push((now - ms + WRAP) % WRAP);
        }
      }
      if (readings.length >= count) {
        clearTimeout(timeout);
        resolve(readings);
      } else video.requestVideoFrameCallback(onFrame);
    };
    video.requestVideoFrameCallback(onFrame);
  });
}

/** A muted, playing video element for a received stream. */
function player() {
  const video = Object.assign(document.createElement("video"), { muted: true, autoplay: true, playsInline: true });
  document.body.append(video);
  return video;
}

/** Until ICE gathering is complete (offers here are non-trickle, as Livepeer's clients send them). */
function gathered(pc) {
  return new Promise((resolve) => {
    if (pc.iceGatheringState === "complete") return resolve();
    pc.addEventListener("icegatheringstatechange", () => pc.iceGatheringState === "complete" && resolve());
  });
}

/** The floor: the source through two RTCPeerConnections in this page, no server between. */
async function floor(count) {
  const { stream, stop } = source();
  const sender = new RTCPeerConnection();
  const receiver = new RTCPeerConnection();
  for (const track of stream.getTracks()) sender.addTransceiver(track, { direction: "sendonly", streams: [stream] });
  const video = player();
  receiver.addEventListener("track", (e) => (video.srcObject = e.streams[0]));
  await sender.setLocalDescription(await sender.createOffer());
  await gathered(sender);
  await receiver.setRemoteDescription(sender.localDescription);
  await receiver.setLocalDescription(await receiver.createAnswer());
  await gathered(receiver);
  await sender.setRemoteDescription(receiver.localDescription);
  await new Promise((r) => setTimeout(r, 2000));
  try {
    return await read(video, count);
  } finally {
    stop();
    sender.close();
    receiver.close();
    video.remove();
  }
}

/** The source published over WHIP to `key` (one non-trickle offer); resolves when it is answered, with the time of the POST. */
async function publish(key) {
  const { stream, stop } = source();
  const pc = new RTCPeerConnection();
  for (const track of stream.getTracks()) {
    const { sender } = pc.addTransceiver(track, { direction: "sendonly", streams: [stream] });
    // As the dashboard's publisher (lib/client/whip.ts) sends: the resolution kept.
    if (track.kind === "video") await sender.setParameters({ ...sender.getParameters(), degradationPreference: "maintain-resolution" });
  }
  await pc.setLocalDescription(await pc.createOffer());
  await gathered(pc);
  const postedAt = Date.now();
  const res = await fetch(`/webrtc/${key}`, { method: "POST", headers: { "content-type": "application/sdp" }, body: pc.localDescription.sdp });
  if (res.status !== 201) throw new Error(`WHIP answered ${res.status}: ${await res.text()}`);
  await pc.setRemoteDescription({ type: "answer", sdp: await res.text() });
  window.publisher = { pc, stop };
  return { postedAt };
}

/** What the publisher sends now, over `ms`: its video's bits per second and size, what limits it (cpu, bandwidth or none), and the bandwidth the browser estimates it has. */
async function publisherRate(ms = 2000) {
  const { pc } = window.publisher;
  const sample = async () => {
    const stats = [...(await pc.getStats()).values()];
    const video = stats.find((s) => s.type === "outbound-rtp" && s.kind === "video");
    const pair = stats.find((s) => s.type === "candidate-pair" && s.nominated && s.state === "succeeded");
    return {
      bytes: video?.bytesSent ?? 0,
      at: performance.now(),
      width: video?.frameWidth,
      height: video?.frameHeight,
      limitedBy: video?.qualityLimitationReason,
      estimate: pair?.availableOutgoingBitrate,
    };
  };
  const a = await sample();
  await new Promise((r) => setTimeout(r, ms));
  const b = await sample();
  return { bps: ((b.bytes - a.bytes) * 8 * 1000) / (b.at - a.at), width: b.width, height: b.height, limitedBy: b.limitedBy, estimateBps: b.estimate };
}

/** A WHEP viewer of `playbackId`: the first frame's time after the POST, then `count` clock readings. */
async function watch(playbackId, count) {
  const pc = new RTCPeerConnection();
  pc.addTransceiver("video", { direction: "recvonly" });
  pc.addTransceiver("audio", { direction: "recvonly" });
  const video = player();
  pc.addEventListener("track", (e) => (video.srcObject = e.streams[0] ?? new MediaStream([e.track])));
  await pc.setLocalDescription(await pc.createOffer());
  await gathered(pc);
  const posted = performance.now();
  const res = await fetch(`/webrtc/${playbackId}`, { method: "POST", headers: { "content-type": "application/sdp" }, body: pc.localDescription.sdp });
  if (res.status !== 201) throw new Error(`WHEP answered ${res.status}: ${await res.text()}`);
  await pc.setRemoteDescription({ type: "answer", sdp: await res.text() });
  await new Promise((resolve) => video.requestVideoFrameCallback(resolve));
  const firstFrameMs = performance.now() - posted;
  await new Promise((r) => setTimeout(r, 2000));
  try {
    return { firstFrameMs, readings: await read(video, count) };
  } finally {
    pc.close();
    video.remove();
  }
}

window.captureClock = { floor, publish, publisherRate, watch };
