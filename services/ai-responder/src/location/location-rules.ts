import {
  type LocationDetection,
  formatMonthDay,
  frostDatesFor,
  hardinessZoneForZip,
  lookupZip,
  normalizeState,
  regionForState,
  stateName,
  zipForCityState,
} from '@sprout/gardening';

/** The location columns of a user. */
export interface KnownLocation {
  zipCode: string | null;
  city: string | null;
  state: string | null;
  region: string | null;
  hardinessZone: string | null;
}

export type LocationPatch = Partial<KnownLocation>;

/** Twilio's FromZip / FromCity / FromState / FromCountry of an inbound message (carrier-reported). */
export interface LocationHint {
  zip?: string | null;
  city?: string | null;
  state?: string | null;
  country?: string | null;
}

/** Everything a ZIP tells: city, state, broad region and USDA zone. Null for an unknown ZIP. */
export const locationOfZip = (zip: string): KnownLocation | null => {
  const five = zip.trim().slice(0, 5);
  if (!/^\d{5}$/.test(five)) return null;
  const place = lookupZip(five);
  const zone = hardinessZoneForZip(five)?.zone ?? null;
  if (place === null && zone === null) return null;
  return {
    zipCode: five,
    city: place?.city ?? null,
    state: place?.state ?? null,
    region: place === null ? null : regionForState(place.state),
    hardinessZone: zone,
  };
};

/**
 * What a detected location adds to a user's record: a ZIP (given, or a city's representative ZIP)
 * gives everything; a named region gives region, zone and sometimes the state; a state gives state
 * and region. Places abroad give nothing (Sprout serves the United States).
 */
export const locationOfDetection = (detection: LocationDetection): LocationPatch | null => {
  if (!detection.hasLocation) return null;
  if (detection.country !== undefined && detection.country !== 'United States') return null;
  if (detection.zipCode !== undefined) {
    const fromZip = locationOfZip(detection.zipCode);
    if (fromZip !== null) {
      return {
        ...fromZip,
        city: detection.city ?? fromZip.city,
        state: detection.state ?? fromZip.state,
        hardinessZone: fromZip.hardinessZone ?? detection.hardinessZone ?? null,
      };
    }
  }
  const patch: LocationPatch = {};
  if (detection.state !== undefined) patch.state = detection.state;
  if (detection.city !== undefined) patch.city = detection.city;
  if (detection.region !== undefined) patch.region = detection.region;
  else if (detection.state !== undefined) patch.region = regionForState(detection.state);
  if (detection.hardinessZone !== undefined) patch.hardinessZone = detection.hardinessZone;
  return Object.keys(patch).length === 0 ? null : patch;
};

/** What Twilio's location hint adds: its ZIP, else its city and state, else its state (US numbers only). */
export const locationOfHint = (hint: LocationHint): LocationPatch | null => {
  const country = hint.country?.trim().toUpperCase();
  if (country && country !== 'US') return null;
  const zip = hint.zip?.trim();
  if (zip) {
    const fromZip = locationOfZip(zip);
    if (fromZip !== null) return fromZip;
  }
  const state = hint.state ? normalizeState(hint.state) : null;
  if (state === null) return null;
  const city = hint.city?.trim();
  const cityZip = city ? zipForCityState(city, state) : null;
  if (cityZip !== null) {
    const fromCity = locationOfZip(cityZip);
    if (fromCity !== null) return fromCity;
  }
  return { state, region: regionForState(state) };
};

/** A ZIP is the precise kind of location: it replaces what was known. Anything else only fills gaps. */
export const mergeLocation = (known: KnownLocation, patch: LocationPatch): LocationPatch => {
  if (patch.zipCode) return patch;
  const merged: LocationPatch = {};
  for (const key of ['city', 'state', 'region', 'hardinessZone'] as const) {
    const value = patch[key];
    if (value && !known[key]) merged[key] = value;
  }
  return merged;
};

/** Appended once to an answer while no ZIP is known (the user can ignore it or refuse). */
export const ZIP_QUESTION = "What's your ZIP code? I'll time my advice to your local frost dates.";

export const REFUSAL_ACKNOWLEDGEMENT =
  "No problem, I'll keep my advice general. Ask me anything about your plants, lawn or garden.";

// An Alaska ZIP has dates of its own: its zone's would promise a far longer season.
const frostPhrase = (zone: string | null, zipCode: string | null): string | null => {
  if (zone === null) return null;
  const frost = frostDatesFor({ zipCode, zone });
  if (frost === null) return null;
  if (frost.lastSpringFrost === 'frost-free') return 'frost-free most years';
  return `average last frost around ${formatMonthDay(frost.lastSpringFrost)}, first around ${formatMonthDay(frost.firstFallFrost)}`;
};

/** The reply to a message that only gave a location. */
export const locationConfirmation = (location: KnownLocation): string => {
  const zone = location.hardinessZone;
  const frost = frostPhrase(zone, location.zipCode);
  if (location.zipCode) {
    const place =
      location.city && location.state ? `${location.city}, ${location.state}` : `ZIP ${location.zipCode}`;
    const details = [zone ? `zone ${zone}` : null, frost].filter((part) => part !== null).join('; ');
    return `Thanks! I've got you in ${place}${details ? ` (${details})` : ''}. What would you like to grow?`;
  }
  const area = location.region ?? (location.state ? (stateName(location.state) ?? location.state) : null);
  const approx = zone ? ` (about zone ${zone})` : '';
  return `Thanks! I'll tailor my advice to ${area ?? 'your area'}${approx}. For exact frost dates, text your ZIP code.`;
};
