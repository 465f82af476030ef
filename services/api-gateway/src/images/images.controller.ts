import { Controller, NotFoundException, Res } from '@nestjs/common';
import { type EndpointInput, api } from '@sprout/contracts';
import { Endpoint, Input, imageSample } from '@sprout/platform';
import type { FastifyReply } from 'fastify';
import { ImageTestsService } from './image-tests.service';
import { ImagesQueryService } from './images.service';

const SAMPLE_NOT_FOUND = 'No such sample.';

@Controller()
export class ImagesController {
  constructor(
    private readonly images: ImagesQueryService,
    private readonly tests: ImageTestsService,
  ) {}

  @Endpoint(api.images.messages)
  async messages() {
    return this.images.recent();
  }

  @Endpoint(api.images.stats)
  async stats() {
    return this.images.stats();
  }

  @Endpoint(api.images.processingTest)
  async processingTest(@Input() { body }: EndpointInput<typeof api.images.processingTest>) {
    return this.tests.process(body);
  }

  @Endpoint(api.images.validationTest)
  async validationTest() {
    return this.tests.validate();
  }

  /** The samples as the fetcher reads them in place (libs/platform image-samples). */
  @Endpoint(api.images.sample)
  sample(
    @Input() { params }: EndpointInput<typeof api.images.sample>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): string {
    const sample = imageSample(params.name);
    if (sample.status === 404) throw new NotFoundException(SAMPLE_NOT_FOUND);
    void reply.header('cache-control', 'no-store');
    if (sample.headers.location !== undefined) {
      void reply.redirect(sample.headers.location, sample.status);
      return '';
    }
    void reply.status(sample.status).header('content-type', sample.headers['content-type']).send(sample.body);
    return '';
  }
}
