// Every query of the admin console, in one place. The first element is the URL (spec 000 §7);
// the rest are the parameters the answer depends on.
export const QueryKeys = {
  authStatus: ['/api/admin/auth-status'] as const,
  dashboardMetrics: (showTestData: boolean) => ['/api/dashboard/metrics', { showTestData }] as const,
  betaSignups: ['/api/admin/beta-signups'] as const,
};
