import { z } from 'zod';
import { answer, endpoint } from '../http/endpoint';
import { wholeNumberParam } from '../http/params';
import type { IsoDateTime } from './common';

// The garden calendar's console: who subscribed to tips by text, what goes out in the next two
// weeks, a preview of any ZIP's tips, recent sends and weather alerts, and the switch that pauses
// every tip.

export const CALENDAR_SEND_KIND_VALUES = ['tip', 'frost_alert', 'heat_alert'] as const;
export type CalendarSendKindValue = (typeof CALENDAR_SEND_KIND_VALUES)[number];

export const WEATHER_ALERT_KIND_VALUES = ['freeze', 'heat'] as const;
export type WeatherAlertKindValue = (typeof WEATHER_ALERT_KIND_VALUES)[number];

/** Days an opt-out may follow a tip and still count against it (the opt-out rate after tips). */
export const OPT_OUT_AFTER_TIP_DAYS = 7;
/** Days the console looks ahead. */
export const CALENDAR_UPCOMING_DAYS = 14;
/** Weeks of tips a ZIP preview shows. */
export const CALENDAR_PREVIEW_WEEKS = 8;

/** GET /api/admin/garden-calendar/summary */
export interface GardenCalendarSummary {
  /** Users subscribed to tips now. */
  subscribers: number;
  /** Offered tips and not yet answered. */
  offered: number;
  /** Said no to the offer. */
  declined: number;
  /** Subscribed once, then sent TIPS OFF (or STOP). */
  unsubscribed: number;
  /** While true no tip or alert is planned or sent (those due are skipped). */
  paused: boolean;
  /**
   * Share (0 to 1) of users who got at least one tip and sent TIPS OFF or STOP within
   * OPT_OUT_AFTER_TIP_DAYS of one; null while nobody has had a tip.
   */
  optOutRateAfterTips: number | null;
  /** Users who got at least one tip (the rate's denominator). */
  tippedUsers: number;
  /** Of those, the ones who opted out within OPT_OUT_AFTER_TIP_DAYS of a tip. */
  optedOutAfterTips: number;
  /** Tips and alerts sent in the last 30 days. */
  sentLast30Days: number;
}

/** One subscriber (GET /api/admin/garden-calendar/subscribers). */
export interface GardenCalendarSubscriber {
  userId: string;
  /** "+1503***0123": enough to tell numbers apart, no more. */
  maskedPhone: string;
  zipCode: string | null;
  hardinessZone: string | null;
  /** When they subscribed. */
  since: IsoDateTime | null;
  /** Tips sent to them so far. */
  tipsSent: number;
}

export interface GardenCalendarSubscribersPage {
  subscribers: GardenCalendarSubscriber[];
  /** Subscribers in all. */
  total: number;
  page: number;
  pageSize: number;
}

/** One day of GET /api/admin/garden-calendar/upcoming: texts scheduled for it, by kind. */
export interface GardenCalendarDay {
  /** YYYY-MM-DD in `timeZone`. */
  date: string;
  tip: number;
  frost_alert: number;
  heat_alert: number;
}

export interface GardenCalendarUpcoming {
  /** The days are counted in this IANA time zone (the deployment's day). */
  timeZone: string;
  /** Today and the next 13 days, in order. */
  days: GardenCalendarDay[];
}

/** One tip of a preview: what the calendar would send and when (libs/gardening's CalendarTip). */
export interface CalendarTipPreview {
  /** Stable per task and season, e.g. "tomatoes:start-indoors:2027" (the season's year). */
  key: string;
  kind: 'tip';
  /** The crop's name (crops.json), or null for a garden-wide task (heat). */
  crop: string | null;
  /** start-indoors, harden-off, transplant, sow, plant, sow-fall, plant-fall, plant-garlic, plant-bulbs, protect-from-heat. */
  task: string;
  /** YYYY-MM-DD in the ZIP's time zone. */
  date: string;
  /** The SMS as sent: at most two GSM-7 segments, its last line how to stop. */
  text: string;
}

/** GET /api/admin/garden-calendar/preview */
export interface GardenCalendarPreview {
  zipCode: string;
  /** "Portland, OR", when the ZIP's post office is known. */
  place: string | null;
  zone: string | null;
  /** IANA time zone the tips are timed in. */
  timeZone: string | null;
  /** Average last spring frost "MM-DD", or "frost-free". */
  lastFrost: string | null;
  /** Average first fall frost "MM-DD", or "frost-free". */
  firstFrost: string | null;
  /** First and last day previewed (YYYY-MM-DD, both included: 8 weeks). */
  from: string;
  until: string;
  tips: CalendarTipPreview[];
}

/** One recent send (GET /api/admin/garden-calendar/sends). */
export interface GardenCalendarSend {
  id: string;
  sentAt: IsoDateTime | null;
  kind: CalendarSendKindValue;
  maskedPhone: string;
  body: string;
  /** The outbound message's status (queued, sent, delivered, failed...); null without one. */
  deliveryStatus: string | null;
  /** Dollars, at the SMS list price; null until the provider accepted it. */
  costUsd: number | null;
}

/** One weather alert (GET /api/admin/garden-calendar/alerts). */
export interface GardenCalendarAlert {
  id: string;
  /** The forecast grid (NWS office/x/y) the alert is for. */
  gridKey: string;
  kind: WeatherAlertKindValue;
  /** YYYY-MM-DD. */
  eventDate: string;
  lowF: number | null;
  highF: number | null;
  forecast: string;
  raisedAt: IsoDateTime;
  /** Texts sent about it. */
  textsSent: number;
}

/** PUT /api/admin/garden-calendar/pause */
export const GardenCalendarPauseRequest = z.object(
  { paused: z.boolean({ error: 'must be true or false' }) },
  { error: 'The body must be a JSON object with paused: true or false' },
);
export type GardenCalendarPauseRequest = z.output<typeof GardenCalendarPauseRequest>;

export interface GardenCalendarPauseResponse {
  paused: boolean;
}

export const INVALID_PREVIEW_ZIP = 'Please enter a 5-digit US ZIP code.';
export const unknownPreviewZip = (zip: string): string =>
  `ZIP ${zip} is not one we know: no hardiness zone or frost dates to time tips by.`;

export const GARDEN_CALENDAR_SUBSCRIBERS_MAX_PAGE_SIZE = 200;
export const GARDEN_CALENDAR_LIST_DEFAULT_LIMIT = 50;
export const GARDEN_CALENDAR_LIST_MAX_LIMIT = 500;

const PREVIEW_FROM_INVALID = 'must be a date (YYYY-MM-DD) between 2000 and 2099';

/** A calendar day, checked to exist (no February 30th). */
const previewFrom = z
  .string({ error: PREVIEW_FROM_INVALID })
  .trim()
  .optional()
  .transform((value, ctx): string | undefined => {
    if (value === undefined || value === '') return undefined;
    const match = /^(20\d{2})-(\d{2})-(\d{2})$/.exec(value);
    const at = match ? new Date(`${value}T00:00:00Z`) : null;
    if (at === null || Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== value) {
      ctx.addIssue({ code: 'custom', message: PREVIEW_FROM_INVALID });
      return z.NEVER;
    }
    return value;
  });

const PreviewQuery = z.object({
  zip: z
    .string({ error: INVALID_PREVIEW_ZIP })
    .trim()
    .regex(/^\d{5}$/, { error: INVALID_PREVIEW_ZIP }),
  /** The first day previewed; absent: today in the ZIP's time zone. */
  from: previewFrom,
});

const LimitQuery = z.object({
  limit: wholeNumberParam(GARDEN_CALENDAR_LIST_DEFAULT_LIMIT, 1, GARDEN_CALENDAR_LIST_MAX_LIMIT),
});

const TAG = 'garden calendar';
const BASE = '/api/admin/garden-calendar';

export const gardenCalendarApi = {
  summary: endpoint({
    method: 'GET',
    path: `${BASE}/summary`,
    access: 'admin',
    tag: TAG,
    summary:
      'Subscribers by tips status, the pause switch, texts sent in 30 days and the opt-out rate after tips',
    answer: answer<GardenCalendarSummary>('The garden calendar at a glance'),
  }),
  subscribers: endpoint({
    method: 'GET',
    path: `${BASE}/subscribers`,
    access: 'admin',
    tag: TAG,
    summary: 'Users subscribed to tips, latest first (masked phones), a page at a time',
    query: z.object({
      page: wholeNumberParam(1, 1, 1_000_000),
      pageSize: wholeNumberParam(50, 1, GARDEN_CALENDAR_SUBSCRIBERS_MAX_PAGE_SIZE),
    }),
    answer: answer<GardenCalendarSubscribersPage>('One page of subscribers and how many there are'),
  }),
  upcoming: endpoint({
    method: 'GET',
    path: `${BASE}/upcoming`,
    access: 'admin',
    tag: TAG,
    summary: 'Texts scheduled for today and the next 13 days, counted by day and kind',
    answer: answer<GardenCalendarUpcoming>('Fourteen days of scheduled tips and alerts'),
  }),
  preview: endpoint({
    method: 'GET',
    path: `${BASE}/preview`,
    access: 'admin',
    tag: TAG,
    summary:
      "A ZIP's next 8 weeks of tips, with its zone, time zone and frost dates (400 for an unknown ZIP)",
    query: PreviewQuery,
    answer: answer<GardenCalendarPreview>('The tips the calendar would send a gardener there'),
  }),
  sends: endpoint({
    method: 'GET',
    path: `${BASE}/sends`,
    access: 'admin',
    tag: TAG,
    summary: 'Tips and alerts sent lately, newest first, with delivery status and SMS cost (default 50)',
    query: LimitQuery,
    answer: answer<GardenCalendarSend[]>('Recent sends'),
  }),
  alerts: endpoint({
    method: 'GET',
    path: `${BASE}/alerts`,
    access: 'admin',
    tag: TAG,
    summary:
      'Frost and heat alerts raised from the forecast, newest first, with texts sent for each (default 50)',
    query: LimitQuery,
    answer: answer<GardenCalendarAlert[]>('Recent weather alerts'),
  }),
  pause: endpoint({
    method: 'PUT',
    path: `${BASE}/pause`,
    access: 'admin',
    tag: TAG,
    summary: 'Pause all tips and alerts (true: those due are skipped) or let them go out again (false)',
    body: GardenCalendarPauseRequest,
    answer: answer<GardenCalendarPauseResponse>('Whether tips are paused now'),
  }),
} as const;
