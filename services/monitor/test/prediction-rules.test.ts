import {
  BUCKET_COUNT,
  type BucketSample,
  type SpendSnapshot,
  emptyBucket,
  memoryGrowthPrediction,
  memoryPrediction,
  predict,
  queueBacklogPredictions,
  spendPrediction,
  statsOf,
  systemStatusOf,
  trendsOf,
  windowStartOf,
} from '../src/predictions/prediction-rules';

const bucket = (values: Partial<BucketSample>): BucketSample => ({ ...emptyBucket(), ...values });
/** 9 baseline buckets then 3 recent ones. */
const hour = (baseline: Partial<BucketSample>, recent: Partial<BucketSample>): BucketSample[] => [
  ...Array.from({ length: 9 }, () => bucket(baseline)),
  ...Array.from({ length: 3 }, () => bucket(recent)),
];
const quietSpend: SpendSnapshot = {
  spentToday: 0,
  spentLastHour: 0,
  callsLastHour: 0,
  limit: 50,
  now: new Date('2025-06-15T12:00:00Z'),
};
const lowMemory = { heapUsedBytes: 50e6, heapLimitBytes: 4e9 };
const types = (buckets: BucketSample[], spend = quietSpend) =>
  predict({ buckets, spend, memory: lowMemory }).map((p) => p.type);

describe('windows and trends', () => {
  it('aligns 12 five-minute buckets so the newest holds now', () => {
    const now = new Date('2025-06-15T12:07:30Z');
    expect(windowStartOf(now).toISOString()).toBe('2025-06-15T11:10:00.000Z');
  });

  it('reports one point per bucket: seconds and percent, zero when idle', () => {
    const buckets = Array.from({ length: BUCKET_COUNT }, emptyBucket);
    buckets[0] = bucket({ responseTimeMsTotal: 9000, timedResponses: 3, operations: 8, errors: 2 });
    const trends = trendsOf(buckets, new Date('2025-06-15T11:10:00Z'));
    expect(trends.responseTimeHistory).toHaveLength(12);
    expect(trends.errorRateHistory).toHaveLength(12);
    expect(trends.responseTimeHistory[0]).toEqual({ timestamp: '2025-06-15T11:10:00.000Z', value: 3 });
    expect(trends.errorRateHistory[0]).toEqual({ timestamp: '2025-06-15T11:10:00.000Z', value: 25 });
    expect(trends.responseTimeHistory[11]).toEqual({ timestamp: '2025-06-15T12:05:00.000Z', value: 0 });
  });

  it('weights averages by samples', () => {
    const stats = statsOf([
      bucket({ responseTimeMsTotal: 1000, timedResponses: 1 }),
      bucket({ responseTimeMsTotal: 9000, timedResponses: 3 }),
    ]);
    expect(stats.averageResponseSeconds).toBe(2.5);
    expect(statsOf([emptyBucket()])).toEqual({
      averageResponseSeconds: null,
      timedResponses: 0,
      errorRate: null,
      operations: 0,
    });
  });
});

describe('error rate rule', () => {
  it('predicts a rising error rate with severity by level and confidence by volume', () => {
    const [prediction] = predict({
      buckets: hour({ operations: 20, errors: 0 }, { operations: 20, errors: 3 }),
      spend: quietSpend,
      memory: lowMemory,
    });
    expect(prediction).toMatchObject({
      type: 'error_rate_increase',
      severity: 'medium',
      confidence: 'high',
      currentRate: 15,
      percentageChange: 100,
      timeframe: 'next 15 minutes',
    });
    expect(prediction?.recommendedActions.length).toBeGreaterThan(0);
  });

  it('ignores low rates, small samples and a steady moderate rate', () => {
    expect(types(hour({ operations: 20 }, { operations: 20, errors: 0 }))).toEqual([]);
    expect(types(hour({ operations: 20 }, { operations: 1, errors: 1 }))).toEqual([]);
    expect(types(hour({ operations: 20, errors: 2 }, { operations: 20, errors: 2 }))).toEqual([]);
  });

  it('flags a steady but high error rate', () => {
    const predictions = predict({
      buckets: hour({ operations: 10, errors: 4 }, { operations: 10, errors: 4 }),
      spend: quietSpend,
      memory: lowMemory,
    });
    expect(predictions[0]).toMatchObject({
      type: 'error_rate_increase',
      severity: 'high',
      percentageChange: 0,
    });
  });
});

describe('response time rule', () => {
  it('predicts slowing responses against the baseline', () => {
    const [prediction] = predict({
      buckets: hour(
        { responseTimeMsTotal: 2000, timedResponses: 1 },
        { responseTimeMsTotal: 22000, timedResponses: 2 },
      ),
      spend: quietSpend,
      memory: lowMemory,
    });
    expect(prediction).toMatchObject({
      type: 'response_time_degradation',
      severity: 'medium',
      currentRate: 11,
      percentageChange: 450,
    });
  });

  it('ignores fast replies and a steady moderate pace', () => {
    expect(
      types(
        hour(
          { responseTimeMsTotal: 2000, timedResponses: 1 },
          { responseTimeMsTotal: 4000, timedResponses: 2 },
        ),
      ),
    ).toEqual([]);
    expect(
      types(
        hour(
          { responseTimeMsTotal: 6000, timedResponses: 1 },
          { responseTimeMsTotal: 12000, timedResponses: 2 },
        ),
      ),
    ).toEqual([]);
  });
});

describe('spend rule', () => {
  const spend = (values: Partial<SpendSnapshot>): SpendSnapshot => ({ ...quietSpend, ...values });

  it('is high at or over the limit', () => {
    expect(spendPrediction(spend({ spentToday: 50 }))).toMatchObject({
      type: 'spending_limit',
      severity: 'high',
      timeframe: 'now',
      currentRate: 50,
      percentageChange: 100,
    });
  });

  it('warns from 80 % of the limit, high when the pace reaches the limit today', () => {
    // 12:00 UTC: 12 hours left at $1/h reaches $52.
    expect(spendPrediction(spend({ spentToday: 40, spentLastHour: 1, callsLastHour: 30 }))).toMatchObject({
      severity: 'high',
      confidence: 'high',
      timeframe: 'next 10 hours',
      percentageChange: 80,
    });
    expect(spendPrediction(spend({ spentToday: 42 }))).toMatchObject({
      severity: 'medium',
      timeframe: 'today',
    });
  });

  it('projects the pace below 80 %', () => {
    expect(spendPrediction(spend({ spentToday: 20, spentLastHour: 15, callsLastHour: 150 }))).toMatchObject({
      severity: 'medium',
      confidence: 'high',
      timeframe: 'next 2 hours',
    });
    expect(spendPrediction(spend({ spentToday: 10, spentLastHour: 4, callsLastHour: 5 }))).toMatchObject({
      severity: 'low',
      confidence: 'low',
      timeframe: 'next 10 hours',
    });
    expect(spendPrediction(spend({ spentToday: 10, spentLastHour: 1 }))).toBeNull();
    expect(spendPrediction(spend({ spentToday: 10, limit: 0 }))).toBeNull();
  });
});

describe('memory rule and system status', () => {
  it('flags the heap near its limit', () => {
    expect(memoryPrediction({ heapUsedBytes: 80, heapLimitBytes: 100 })).toBeNull();
    expect(memoryPrediction({ heapUsedBytes: 90, heapLimitBytes: 100 })).toMatchObject({
      type: 'memory_pressure',
      severity: 'medium',
    });
    expect(memoryPrediction({ heapUsedBytes: 96, heapLimitBytes: 100 })).toMatchObject({ severity: 'high' });
  });

  it('orders predictions by severity and derives the system status', () => {
    const predictions = predict({
      buckets: hour(
        { operations: 20 },
        { operations: 20, errors: 1, responseTimeMsTotal: 60000, timedResponses: 3 },
      ),
      spend: quietSpend,
      memory: lowMemory,
    });
    expect(predictions.map((p) => [p.type, p.severity])).toEqual([
      ['response_time_degradation', 'high'],
      ['error_rate_increase', 'low'],
    ]);
    expect(systemStatusOf(predictions, 'healthy')).toBe('critical');
    expect(systemStatusOf(predictions.slice(1), 'healthy')).toBe('warning');
    expect(systemStatusOf([], 'degraded')).toBe('warning');
    expect(systemStatusOf([], null)).toBe('normal');
  });
});

describe('queue backlog and memory growth rules', () => {
  const start = Date.parse('2025-06-15T11:00:00Z');
  const sample = (minute: number, waiting: Record<string, number>, heapMb = 60) => ({
    at: new Date(start + minute * 60_000).toISOString(),
    waiting,
    heapUsedBytes: heapMb * 1024 * 1024,
  });

  it('predicts a queue backing up against 15 minutes ago, naming its consumer', () => {
    const samples = Array.from({ length: 20 }, (_, m) =>
      sample(m, { 'sms.inbound': m < 5 ? 40 : 40 + (m - 4) * 12, 'sms.outbound': 30 }),
    );
    const predictions = queueBacklogPredictions(samples);
    expect(predictions).toHaveLength(1);
    // Minute 19: 220 waiting; minute 4 (15 minutes earlier): 40.
    expect(predictions[0]).toMatchObject({
      type: 'queue_backlog',
      severity: 'medium',
      confidence: 'high',
      timeframe: 'next 30 minutes',
      currentRate: 220,
      percentageChange: 450,
    });
    expect(predictions[0]?.recommendedActions[0]).toBe(
      'sms.inbound: 220 jobs waiting, 12 more every minute for 15 minutes',
    );
    expect(predictions[0]?.recommendedActions[1]).toContain('ai-responder');
  });

  it('ignores small, steady or shrinking queues and too little history', () => {
    const steady = Array.from({ length: 20 }, (_, m) => sample(m, { 'sms.inbound': 300 }));
    expect(queueBacklogPredictions(steady)).toEqual([]);
    const small = Array.from({ length: 20 }, (_, m) => sample(m, { 'sms.inbound': m }));
    expect(queueBacklogPredictions(small)).toEqual([]);
    const short = Array.from({ length: 10 }, (_, m) => sample(m, { 'sms.inbound': m * 100 }));
    expect(queueBacklogPredictions(short)).toEqual([]);
  });

  it('predicts memory growing towards the heap limit', () => {
    // 60 MB to 119 MB over an hour, limit 512 MB: about 6.7 hours left at ~59 MB/h.
    const samples = Array.from({ length: 60 }, (_, m) => sample(m, {}, 60 + m));
    const prediction = memoryGrowthPrediction(samples, {
      heapUsedBytes: 119 * 1024 * 1024,
      heapLimitBytes: 512 * 1024 * 1024,
    });
    expect(prediction).toMatchObject({
      type: 'memory_growth',
      severity: 'medium',
      confidence: 'high',
      timeframe: 'next 7 hours',
      currentRate: 60,
    });
    expect(prediction?.percentageChange).toBeCloseTo(77.9, 0);
  });

  it('ignores a flat or short heap history', () => {
    const limit = { heapUsedBytes: 60 * 1024 * 1024, heapLimitBytes: 512 * 1024 * 1024 };
    const flat = Array.from({ length: 60 }, (_, m) => sample(m, {}, 60 + (m % 3)));
    expect(memoryGrowthPrediction(flat, limit)).toBeNull();
    const short = Array.from({ length: 20 }, (_, m) => sample(m, {}, 60 + m * 10));
    expect(memoryGrowthPrediction(short, limit)).toBeNull();
  });
});
