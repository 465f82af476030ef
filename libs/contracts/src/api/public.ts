import { z } from 'zod';
import type { IsoDateTime } from './common';

/** POST /api/beta-signup. The spec's "region" field carries the zip code. */
export const BetaSignupRequest = z.object({
  email: z.email({ error: 'Please provide a valid email address.' }).max(254),
  region: z.string().trim().min(1, { error: 'Please provide both email and region.' }).max(100),
});
export type BetaSignupRequest = z.output<typeof BetaSignupRequest>;

export type BetaSignupStatusValue = 'pending' | 'approved' | (string & {});

export interface BetaSignupDto {
  id: string;
  email: string;
  zipCode: string;
  uniqueCode: string;
  signupDate: IsoDateTime;
  status: BetaSignupStatusValue;
}

/** Answer of POST /api/beta-signup (only success is used by the page). */
export interface BetaSignupResponse {
  success: true;
  message: string;
  signup: BetaSignupDto;
}

/** POST /api/test-location (public, rate-limited) and the admin location test. */
export const LocationTestRequest = z.object({
  message: z.string().trim().min(1, { error: 'Please enter a message.' }).max(1600),
});
export type LocationTestRequest = z.output<typeof LocationTestRequest>;

export type LocationType = 'zip' | 'city_state' | 'region' | 'none' | (string & {});

export interface LocationTestResult {
  hasLocation: boolean;
  /** The detected location as text (a ZIP, "Portland, OR", "Pacific Northwest"), or null. */
  location: string | null;
  /** 0 to 1. */
  confidence: number;
  locationType: LocationType | null;
  refusedLocation: boolean;
}
