import { z } from 'zod';
import { answer, endpoint } from '../http/endpoint';
import { idParams, textField, wholeNumberParam } from '../http/params';
import type { IsoDateTime } from './common';

export const MISSING_SIGNUP_FIELDS = 'Please provide both email and region.';
export const INVALID_SIGNUP_EMAIL = 'Please provide a valid email address.';
export const SIGNUP_ZIP_TOO_LONG = 'Please enter a valid zip code (at most 10 characters).';
export const SIGNUP_ZIP_MAX_LENGTH = 10;

/**
 * POST /api/beta-signup. The "region" field carries the zip code. A missing, blank or
 * non-text field asks for both fields, whatever else is wrong.
 */
export const BetaSignupRequest = z.object(
  {
    email: textField(MISSING_SIGNUP_FIELDS)
      .trim()
      .min(1, { error: MISSING_SIGNUP_FIELDS })
      .pipe(z.email({ error: INVALID_SIGNUP_EMAIL }).max(254, { error: INVALID_SIGNUP_EMAIL })),
    region: textField(MISSING_SIGNUP_FIELDS)
      .trim()
      .min(1, { error: MISSING_SIGNUP_FIELDS })
      .max(SIGNUP_ZIP_MAX_LENGTH, { error: SIGNUP_ZIP_TOO_LONG }),
  },
  { error: MISSING_SIGNUP_FIELDS },
);
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

/** POST /api/beta-signup, a new signup (201). */
export interface BetaSignupCreated {
  success: true;
  message: string;
  signup: BetaSignupDto;
}

/** POST /api/beta-signup when the email is already on the waitlist (200). */
export interface BetaSignupAlreadyRegistered {
  success: true;
  message: string;
  alreadyRegistered: true;
}

export type BetaSignupResponse = BetaSignupCreated | BetaSignupAlreadyRegistered;

/** POST /api/admin/beta-signups/{id}/approve */
export interface BetaSignupApproveResponse {
  success: true;
  signup: BetaSignupDto;
}

/** GET /api/public-config: what the public pages show from configuration. */
export interface PublicConfig {
  /** E.164; the /live page's sms: link. */
  phoneNumber: string;
  contactEmail: string;
}

export const BETA_SIGNUP_LIST_DEFAULT_LIMIT = 500;
export const BETA_SIGNUP_LIST_MAX_LIMIT = 1000;

/** The beta waitlist: the public signup and the dashboard's list and approval. */
export const waitlistApi = {
  join: endpoint({
    method: 'POST',
    path: '/api/beta-signup',
    access: 'public',
    tag: 'beta waitlist',
    summary: 'Join the beta waitlist (201 new, 200 already registered)',
    description:
      'One signup per email, whatever its case. An email already on the waitlist answers 200 with ' +
      'alreadyRegistered: true. Rate-limited per client IP (429).',
    body: BetaSignupRequest,
    status: 201,
    answer: answer<BetaSignupResponse>('The new signup, or the notice that the email is already on the list'),
  }),
  list: endpoint({
    method: 'GET',
    path: '/api/admin/beta-signups',
    access: 'admin',
    tag: 'beta waitlist',
    summary: 'Beta signups, newest first',
    query: z.object({
      limit: wholeNumberParam(BETA_SIGNUP_LIST_DEFAULT_LIMIT, 1, BETA_SIGNUP_LIST_MAX_LIMIT),
    }),
    answer: answer<BetaSignupDto[]>('Signups, newest first'),
  }),
  approve: endpoint({
    method: 'POST',
    path: '/api/admin/beta-signups/:id/approve',
    access: 'admin',
    tag: 'beta waitlist',
    summary: 'Approve a beta signup (approving again changes nothing)',
    params: idParams('Invalid beta signup id.'),
    answer: answer<BetaSignupApproveResponse>('The approved signup'),
  }),
} as const;

/** What the public site reads from configuration. */
export const publicApi = {
  config: endpoint({
    method: 'GET',
    path: '/api/public-config',
    access: 'public',
    tag: 'public site',
    summary: 'The phone number and contact address the public pages show',
    answer: answer<PublicConfig>('The number to text and the contact address'),
  }),
} as const;
