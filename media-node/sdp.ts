/**
 * What a WHIP offer (a browser's or an encoder's SDP) says the publisher can send, read for the
 * one choice the node makes: which of its video and audio formats to receive.
 */
export interface OfferedMedia {
  mid: string;
  payloadType: number;
  codec: string;
  clockRate: number;
  channels?: number;
  /** The format's a=fmtp parameters, as offered. */
  fmtp?: string;
}

export interface OfferChoice {
  video?: OfferedMedia;
  audio?: OfferedMedia;
}

/** H.264 the node copies into HLS as it is: non-interleaved packets (mode 1), a profile every player decodes. */
const H264_PREFERRED = [/profile-level-id=42e01f/i, /profile-level-id=42001f/i, /profile-level-id=4d001f/i, /profile-level-id=64001f/i];

/** The media sections of an SDP, each with its kind and its lines. */
function sections(sdp: string): { kind: string; lines: string[] }[] {
  const lines = sdp.split(/\r?\n/).filter(Boolean);
  const out: { kind: string; lines: string[] }[] = [];
  for (const line of lines) {
    if (line.startsWith("m=")) out.push({ kind: line.slice(2).split(" ")[0], lines: [line] });
    else out.at(-1)?.lines.push(line);
  }
  return out;
}

function formats(lines: string[], mid: string): OfferedMedia[] {
  const fmtp = new Map<number, string>();
  for (const line of lines) {
    const m = /^a=fmtp:(\d+) (.*)$/.exec(line);
    if (m) fmtp.set(Number(m[1]), m[2].trim());
  }
  const out: OfferedMedia[] = [];
  for (const line of lines) {
    const m = /^a=rtpmap:(\d+) ([\w-]+)\/(\d+)(?:\/(\d+))?$/.exec(line.trim());
    if (!m) continue;
    const payloadType = Number(m[1]);
    out.push({ mid, payloadType, codec: m[2], clockRate: Number(m[3]), channels: m[4] ? Number(m[4]) : undefined, fmtp: fmtp.get(payloadType) });
  }
  return out;
}

/**
 * The formats the node receives: H.264 (packetization mode 1, the most widely decoded profile
 * offered) else VP8 or VP9 (transcoded for HLS); Opus for audio. A section whose direction does not
 * send (recvonly, inactive) is not a publisher's.
 */
export function chooseFromOffer(sdp: string): OfferChoice {
  const choice: OfferChoice = {};
  for (const { kind, lines } of sections(sdp)) {
    if (lines.some((l) => l === "a=recvonly" || l === "a=inactive")) continue;
    const mid = lines
      .find((l) => l.startsWith("a=mid:"))
      ?.slice(6)
      .trim();
    if (!mid) continue;
    const offered = formats(lines, mid);
    if (kind === "video" && !choice.video) {
      const h264 = offered.filter((f) => /^h264$/i.test(f.codec) && /packetization-mode=1/.test(f.fmtp ?? ""));
      choice.video =
        H264_PREFERRED.map((p) => h264.find((f) => p.test(f.fmtp ?? ""))).find(Boolean) ??
        h264[0] ??
        offered.find((f) => /^vp8$/i.test(f.codec)) ??
        offered.find((f) => /^vp9$/i.test(f.codec));
    }
    if (kind === "audio" && !choice.audio) choice.audio = offered.find((f) => /^opus$/i.test(f.codec));
  }
  return choice;
}

/** The SDP ffmpeg reads the received RTP with: each chosen format on its loopback port. */
export function ffmpegSdp(choice: OfferChoice, ports: { video?: number; audio?: number }): string {
  const lines = ["v=0", "o=- 0 0 IN IP4 127.0.0.1", "s=Castline WebRTC ingest", "c=IN IP4 127.0.0.1", "t=0 0"];
  for (const kind of ["video", "audio"] as const) {
    const media = choice[kind];
    const port = ports[kind];
    if (!media || !port) continue;
    lines.push(`m=${kind} ${port} RTP/AVP ${media.payloadType}`);
    lines.push(`a=rtpmap:${media.payloadType} ${media.codec}/${media.clockRate}${media.channels ? `/${media.channels}` : ""}`);
    if (media.fmtp) lines.push(`a=fmtp:${media.payloadType} ${media.fmtp}`);
  }
  return `${lines.join("\n")}\n`;
}

/**
 * What a WHEP offer (a viewer's) can receive of what the publisher sends: for each kind the
 * publisher sends, the viewer's format of the same codec (H.264: packetization mode 1, the
 * publisher's profile if offered), in a section that receives. Media is forwarded as it arrives, so
 * a viewer that cannot take the publisher's codec gets nothing of that kind.
 */
export function matchViewerOffer(sdp: string, sent: OfferChoice): OfferChoice {
  const choice: OfferChoice = {};
  for (const { kind, lines } of sections(sdp)) {
    if (kind !== "video" && kind !== "audio") continue;
    if (lines.some((l) => l === "a=sendonly" || l === "a=inactive")) continue;
    const mid = lines
      .find((l) => l.startsWith("a=mid:"))
      ?.slice(6)
      .trim();
    const source = sent[kind];
    if (!mid || !source || choice[kind]) continue;
    const same = formats(lines, mid).filter((f) => f.codec.toLowerCase() === source.codec.toLowerCase());
    if (!/^h264$/i.test(source.codec)) choice[kind] = same[0];
    else {
      const modeOne = same.filter((f) => /packetization-mode=1/.test(f.fmtp ?? ""));
      const profile = /profile-level-id=([0-9a-f]{6})/i.exec(source.fmtp ?? "")?.[1].toLowerCase();
      choice[kind] = modeOne.find((f) => profile && f.fmtp?.toLowerCase().includes(`profile-level-id=${profile}`)) ?? modeOne[0];
    }
  }
  return choice;
}

/**
 * An answer that also offers the node's public addresses (WEBRTC_PUBLIC_HOSTS): behind 1:1 NAT
 * (a cloud VM), the address ICE binds is private, and browsers elsewhere reach the node at its
 * public one, the same port forwarded. Each host candidate is repeated with each public address,
 * a foundation of its own and a priority just below; the private one stays (viewers on the same
 * network use it).
 */
export function withPublicAddresses(sdp: string, addresses: string[]): string {
  if (!addresses.length) return sdp;
  const eol = sdp.includes("\r\n") ? "\r\n" : "\n";
  const out: string[] = [];
  for (const line of sdp.split(/\r?\n/)) {
    out.push(line);
    const m = /^a=candidate:(\S+) (\d+) (\S+) (\d+) (\S+) (\d+) typ host(.*)$/.exec(line);
    if (!m) continue;
    const [, foundation, component, transport, priority, , port, rest] = m;
    addresses.forEach((address, i) => {
      out.push(`a=candidate:${foundation}${i + 1} ${component} ${transport} ${Number(priority) - 1 - i} ${address} ${port} typ host${rest}`);
    });
  }
  return out.join(eol);
}
