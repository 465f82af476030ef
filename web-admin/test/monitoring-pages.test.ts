import { healthScoreBand, responseTimeBarPercent, usageBadgeVariant } from '@sprout/contracts';
import { matchRoutes } from 'react-router';
import {
  adminMetricsQuery,
  MONITORING_REFRESH_MS,
  recentMessagesQuery,
  trendsQuery,
} from '../src/features/monitoring/queries';
import { DEFAULT_LOCATION, guessLocation, locationOf } from '../src/features/monitoring/location-guess';
import { deliveryStateOf, secondsAxis } from '../src/features/monitoring/parts';
import {
  SMS_SENDING_NORMAL,
  SMS_SENDING_UNKNOWN,
  smsSendingView,
} from '../src/features/monitoring/sms-sending';
import { routes } from '../src/app/routes';

const routeFor = (path: string) => matchRoutes(routes, path)?.at(-1)?.route.path;

describe('monitoring routes', () => {
  it('serves System Health, Fallback System, Proactive Monitoring and the monitoring dashboard', () => {
    for (const path of [
      '/admin/system-health',
      '/admin/fallback-monitoring',
      '/admin/proactive-monitoring',
      '/admin/monitoring',
    ]) {
      expect(routeFor(path)).toBe(path);
    }
  });

  it('polls each page at its interval, with query keys that are the URLs', () => {
    expect(MONITORING_REFRESH_MS).toMatchObject({
      adminMetrics: 30_000,
      recentMessages: 15_000,
      apiUsage: 10_000,
      conversationQuality: 30_000,
      serviceHealth: 30_000,
      proactiveSystemHealth: 30_000,
      predictions: 30_000,
      trends: 60_000,
    });
    expect(adminMetricsQuery.queryKey).toEqual(['/api/admin/metrics']);
    expect(recentMessagesQuery.queryKey).toEqual(['/api/admin/messages']);
    expect(trendsQuery.queryKey).toEqual(['/api/monitoring/proactive/trends']);
  });
});

describe('location guess', () => {
  it('reads a Pacific Northwest ZIP first, then the area code, else the region', () => {
    expect(guessLocation('+12065550100', '97201')).toBe('Portland, OR');
    expect(guessLocation('+12065550100', null)).toBe('Seattle, WA');
    expect(guessLocation('+15095550100', '')).toBe('Eastern Washington');
    expect(guessLocation('+12085550100', '83702')).toBe('Boise, ID');
    expect(guessLocation('+14155550100', '94117')).toBe(DEFAULT_LOCATION);
    expect(DEFAULT_LOCATION).toBe('Pacific Northwest');
  });

  it('is only for users without a known region: a New York or Maryland user shows theirs', () => {
    expect(locationOf({ phoneNumber: '+12125550100', zipCode: '10001', region: 'Northeast' })).toBe(
      'Northeast',
    );
    expect(locationOf({ phoneNumber: '+14105550100', zipCode: null, region: 'Mid-Atlantic' })).toBe(
      'Mid-Atlantic',
    );
    expect(locationOf({ phoneNumber: '+12065550100', zipCode: null, region: null })).toBe('Seattle, WA');
    expect(locationOf({ phoneNumber: '+12125550100', zipCode: null, region: null })).toBe(DEFAULT_LOCATION);
  });
});

describe('the response-time axis', () => {
  it('counts in round seconds from 0 up to the slowest call, at most 4 steps', () => {
    expect(secondsAxis(1500)).toEqual({ ticks: [0, 0.5, 1, 1.5], top: 1.5 });
    expect(secondsAxis(3100)).toEqual({ ticks: [0, 1, 2, 3, 4], top: 4 });
    expect(secondsAxis(12_000)).toEqual({ ticks: [0, 5, 10, 15], top: 15 });
    expect(secondsAxis(80)).toEqual({ ticks: [0, 0.1], top: 0.1 });
    expect(secondsAxis(0)).toEqual({ ticks: [0, 0.1], top: 0.1 });
  });
});

describe('monitoring rules: delivery states, health bands, usage badges', () => {
  it('maps message statuses to delivery states', () => {
    expect(['delivered', 'sent', 'received'].map(deliveryStateOf)).toEqual([
      'delivered',
      'delivered',
      'delivered',
    ]);
    expect(['failed', 'undelivered'].map(deliveryStateOf)).toEqual(['failed', 'failed']);
    expect(deliveryStateOf('pending')).toBe('pending');
    expect(deliveryStateOf(null)).toBe('unknown');
    expect(deliveryStateOf('queued')).toBe('other');
  });

  it('bands health scores at 80 and 60, colours usage above 80 and 60 percent, caps trend bars', () => {
    expect([80, 79, 60, 59].map(healthScoreBand)).toEqual(['Excellent', 'Good', 'Good', 'Needs Attention']);
    expect([81, 80, 61, 60].map(usageBadgeVariant)).toEqual([
      'destructive',
      'secondary',
      'secondary',
      'default',
    ]);
    expect([0.5, 4.2, 10, 25].map(responseTimeBarPercent)).toEqual([5, 42, 100, 100]);
  });
});

describe("the SMS Provider card's sending line (sms-gateway's Twilio send circuit)", () => {
  const openedAt = new Date(2026, 0, 5, 15, 4).toISOString();
  const retryAt = new Date(2026, 0, 5, 15, 7).toISOString();
  const circuit = {
    consecutiveFailures: 5,
    openedAt,
    retryAt,
    lastError: 'Service Unavailable',
    updatedAt: openedAt,
  };

  it('says normal when closed, and not known when the circuit could not be read', () => {
    expect(
      smsSendingView({
        state: 'closed',
        consecutiveFailures: 0,
        openedAt: null,
        retryAt: null,
        lastError: null,
        updatedAt: null,
      }),
    ).toEqual({ paused: false, text: SMS_SENDING_NORMAL, lastError: null });
    expect(SMS_SENDING_NORMAL).toBe('Sending: normal');
    expect(smsSendingView(null)).toEqual({ paused: false, text: SMS_SENDING_UNKNOWN, lastError: null });
  });

  it('warns while open or half-open: failures in a row, since when, the next try, held replies, last error', () => {
    expect(smsSendingView({ state: 'open', ...circuit })).toEqual({
      paused: true,
      text: 'Sending paused: Twilio failing (5 in a row) since 3:04 PM; next try 3:07 PM; replies are held and will be sent when Twilio recovers',
      lastError: 'Last error: Service Unavailable',
    });
    const halfOpen = smsSendingView({ state: 'half-open', ...circuit, lastError: null });
    expect(halfOpen.paused).toBe(true);
    expect(halfOpen.text).toContain('trying one send now (given up at 3:07 PM)');
    expect(halfOpen.text).toContain('replies are held and will be sent when Twilio recovers');
    expect(halfOpen.lastError).toBeNull();
  });
});
