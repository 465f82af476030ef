import { Controller, Req } from '@nestjs/common';
import { type EndpointInput, api } from '@sprout/contracts';
import { Endpoint, Input } from '@sprout/platform';
import type { FastifyRequest } from 'fastify';
import { SessionService } from '../auth/session.service';
import { MonitorChecksService } from './monitor-checks.service';
import { MonitorStateReader } from './monitor-state.reader';
import { MonitoringFiguresService } from './monitoring-figures.service';
import { type ActingAdmin, QueuesService } from './queues.service';

const m = api.monitoring;

@Controller()
export class MonitoringController {
  constructor(
    private readonly figures: MonitoringFiguresService,
    private readonly state: MonitorStateReader,
    private readonly checks: MonitorChecksService,
    private readonly queues: QueuesService,
    private readonly sessions: SessionService,
  ) {}

  @Endpoint(m.adminMetrics)
  adminMetrics() {
    return this.figures.adminMetrics();
  }

  @Endpoint(m.recentMessages)
  recentMessages(@Input() { query }: EndpointInput<typeof m.recentMessages>) {
    return this.figures.recentMessages(query.limit, query.showTestData);
  }

  @Endpoint(m.apiUsage)
  apiUsage() {
    return this.figures.apiUsage();
  }

  @Endpoint(m.conversationQuality)
  conversationQuality() {
    return this.figures.conversationQuality();
  }

  @Endpoint(m.serviceHealth)
  serviceHealth() {
    return this.state.serviceHealth();
  }

  @Endpoint(m.forceHealthCheck)
  forceHealthCheck() {
    return this.checks.forceHealthCheck();
  }

  @Endpoint(m.proactiveSystemHealth)
  proactiveSystemHealth() {
    return this.state.systemHealth();
  }

  @Endpoint(m.predictions)
  predictions() {
    return this.state.predictions();
  }

  @Endpoint(m.trends)
  trends() {
    return this.state.trends();
  }

  @Endpoint(m.proactiveForceCheck)
  proactiveForceCheck() {
    return this.checks.forcePredictions();
  }

  @Endpoint(m.fallback)
  fallback() {
    return this.figures.fallbackReport();
  }

  @Endpoint(m.queues)
  queueList() {
    return this.queues.list();
  }

  @Endpoint(m.retryJob)
  retryJob(@Input() { params }: EndpointInput<typeof m.retryJob>, @Req() request: FastifyRequest) {
    return this.queues.retry(params.queue, params.jobId, this.admin(request));
  }

  @Endpoint(m.removeJob)
  removeJob(@Input() { params }: EndpointInput<typeof m.removeJob>, @Req() request: FastifyRequest) {
    return this.queues.remove(params.queue, params.jobId, this.admin(request));
  }

  /** The guard has resumed the session already: every route here needs one. */
  private admin(request: FastifyRequest): ActingAdmin {
    const session = this.sessions.current(request);
    return { username: session?.username ?? 'unknown', adminUserId: session?.adminUserId ?? 'unknown' };
  }
}
