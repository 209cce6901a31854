import fs from "node:fs";
import { continents, countries } from "countries-list";
import { type CountryResponse, Reader } from "maxmind";
import { UAParser } from "ua-parser-js";
import { config } from "@/lib/config";

/** What a view's dimensions say of the viewer's browser and device, from its User-Agent. */
export interface Device {
  browser: string;
  browserEngine: string;
  os: string;
  /** desktop, mobile, tablet, tv, console, wearable, embedded */
  deviceType: string;
  /** The model where the browser names it ("iPhone", "SM-G991B"), else the type. */
  device: string;
}

/** User-Agents seen lately: a few hundred distinct ones cover nearly every viewer, and parsing is the dear part. */
const parsed = new Map<string, Device>();
const PARSED_MAX = 5000;

/** ua-parser-js (MIT, the widely used parser): its names, with "desktop" where it reports no device type (it leaves computers out). */
export function deviceOf(userAgent: string): Device {
  const known = parsed.get(userAgent);
  if (known) return known;
  const ua = new UAParser(userAgent).getResult();
  const deviceType = ua.device.type ?? (ua.os.name || ua.browser.name ? "desktop" : "");
  const device: Device = {
    browser: ua.browser.name ?? "",
    browserEngine: ua.engine.name ?? "",
    os: ua.os.name ?? "",
    deviceType,
    device: ua.device.model ?? deviceType,
  };
  if (parsed.size >= PARSED_MAX) parsed.delete(parsed.keys().next().value!);
  parsed.set(userAgent, device);
  return device;
}

/** Where a viewer is, as far as the operator lets us know: a country code and its continent's, or ''. */
export interface Place {
  country: string;
  continent: string;
}

let geo: Reader<CountryResponse> | undefined | null;

/** The operator's GeoIP database (GEOIP_DATABASE), opened once; null without one. */
function geoDatabase(): Reader<CountryResponse> | null {
  if (geo !== undefined) return geo;
  const file = config().GEOIP_DATABASE;
  geo = null;
  if (file) {
    try {
      geo = new Reader<CountryResponse>(fs.readFileSync(file));
    } catch (err) {
      console.error(`[analytics] GEOIP_DATABASE ${file} could not be read: ${(err as Error).message}; countries come from COUNTRY_HEADER or are unknown`);
    }
  }
  return geo;
}

/**
 * The viewer's country: the CDN's header when the operator named one (COUNTRY_HEADER), else the
 * GeoIP database's answer for the address (never stored), else unknown.
 */
export function placeOf(address: string, header: (name: string) => string | undefined): Place {
  const name = config().COUNTRY_HEADER;
  const fromCdn = name ? header(name)?.toUpperCase() : undefined;
  const db = geoDatabase();
  if (fromCdn && fromCdn in countries) return { country: fromCdn, continent: countries[fromCdn as keyof typeof countries].continent };
  if (!db || !address) return { country: "", continent: "" };
  try {
    const found = db.get(address);
    return { country: found?.country?.iso_code ?? "", continent: found?.continent?.code ?? "" };
  } catch {
    return { country: "", continent: "" };
  }
}

/** A country's and a continent's names, as Livepeer's API answers them ("France", "Europe"), from their codes. */
export const countryName = (code: string) => countries[code as keyof typeof countries]?.name ?? code;
export const continentName = (code: string) => continents[code as keyof typeof continents] ?? code;
