import { Controller, Res } from '@nestjs/common';
import { type EndpointInput, SURVEY_DELIVERIES_TOTAL_HEADER, api } from '@sprout/contracts';
import { Endpoint, Input } from '@sprout/platform';
import type { FastifyReply } from 'fastify';
import { SurveysService } from './surveys.service';

/** Survey campaigns. */
@Controller()
export class SurveysController {
  constructor(private readonly surveys: SurveysService) {}

  @Endpoint(api.surveys.list)
  async list() {
    return this.surveys.list();
  }

  @Endpoint(api.surveys.deliveries)
  async deliveries(
    @Input() { params, query }: EndpointInput<typeof api.surveys.deliveries>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { deliveries, total } = await this.surveys.deliveries(params.id, query.limit);
    void reply.header(SURVEY_DELIVERIES_TOTAL_HEADER, String(total));
    return deliveries;
  }

  @Endpoint(api.surveys.create)
  async create(@Input() { body }: EndpointInput<typeof api.surveys.create>) {
    return { success: true as const, campaign: await this.surveys.create(body) };
  }

  @Endpoint(api.surveys.pause)
  async pause(@Input() { params }: EndpointInput<typeof api.surveys.pause>) {
    return { success: true as const, campaign: await this.surveys.pause(params.id) };
  }

  @Endpoint(api.surveys.start)
  async start(@Input() { params }: EndpointInput<typeof api.surveys.start>) {
    return { success: true as const, campaign: await this.surveys.start(params.id) };
  }

  @Endpoint(api.surveys.update)
  async update(@Input() { params, body }: EndpointInput<typeof api.surveys.update>) {
    return { success: true as const, campaign: await this.surveys.updateUrl(params.id, body.surveyUrl) };
  }
}
