// Every /api endpoint and its request and answer shapes, in one table both ends derive from.
// Browser-safe: zod and types only. Each capability's file holds its endpoint table
// (e.g. `usersApi`); `api` gathers them, and everything that serves or calls an endpoint derives
// from its entry: the api-gateway's routes and validation, /api/docs, the web apps' fetch
// functions and query keys.
import { listEndpoints } from '../http/endpoint';
import { authApi } from './auth';
import { dashboardApi } from './dashboard';
import { gardenCalendarApi } from './garden-calendar';
import { imagesApi } from './images';
import { messagesApi } from './messages';
import { modelsApi } from './models';
import { monitoringApi } from './monitoring';
import { publicApi, waitlistApi } from './public';
import { simulatorApi } from './simulator';
import { surveysApi } from './surveys';
import { testersApi } from './testers';
import { usersApi } from './users';
import { webhooksApi } from './webhooks';

export * from './common';
export * from './public';
export * from './auth';
export * from './dashboard';
export * from './users';
export * from './messages';
export * from './models';
export * from './surveys';
export * from './images';
export * from './simulator';
export * from './monitoring';
export * from './testers';
export * from './garden-calendar';
export * from './webhooks';

export const api = {
  public: publicApi,
  waitlist: waitlistApi,
  auth: authApi,
  dashboard: dashboardApi,
  testers: testersApi,
  users: usersApi,
  messages: messagesApi,
  models: modelsApi,
  surveys: surveysApi,
  gardenCalendar: gardenCalendarApi,
  simulator: simulatorApi,
  images: imagesApi,
  monitoring: monitoringApi,
  webhooks: webhooksApi,
} as const;

/** Every endpoint of `api`, for the route check and the OpenAPI document. */
export const ALL_ENDPOINTS = listEndpoints(api);
