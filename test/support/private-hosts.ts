/** Documentation and reserved blocks (IANA special-purpose registries), none of them private: refused all the same. */
export const RESERVED_HOSTS = [
  "192.0.2.1",
  "198.51.100.7",
  "203.0.113.9",
  "192.88.99.1",
  "198.18.0.1",
  "240.0.0.1",
  "[2001:db8::1]",
  "[3fff::1]",
  "[5f00::1]",
  "[2001:2::1]",
];

/**
 * Private and reserved hosts in the spellings getaddrinfo (and so ffmpeg) accepts: what the guard
 * must see through. Documentation and reserved blocks (IANA special-purpose registries) included.
 */
export const PRIVATE_HOSTS = [
  "127.0.0.1",
  "localhost",
  "LOCALHOST",
  "[::1]",
  "169.254.169.254",
  "10.0.0.1",
  "192.168.1.20",
  "0",
  "2130706433",
  "0x7f.1",
  "0x7f000001",
  "0177.0.0.1",
  "017700000001",
  "127.1",
  "0x7F.0.0.1",
  "[::ffff:7f00:1]",
  "[::ffff:127.0.0.1]",
  "[::127.0.0.1]",
  "[::7f00:1]",
  "[64:ff9b::7f00:1]",
  "[64:ff9b::10.0.0.1]",
  "[64:ff9b:1::a00:1]",
  "[2002:7f00:1::]",
  "[2001:0:4136:e378:8000:63bf:80ff:fffe]",
  "[fd00::2]",
  "[fe80::1]",
  ...RESERVED_HOSTS,
  "0xcb007109",
  "[::ffff:192.0.2.1]",
  "[100::1]",
  "[64:ff9b::198.51.100.7]",
];
