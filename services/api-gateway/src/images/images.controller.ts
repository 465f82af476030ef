import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Controller, NotFoundException, Res } from '@nestjs/common';
import { type EndpointInput, IMAGE_MAX_BYTES, api } from '@sprout/contracts';
import { Endpoint, Input } from '@sprout/platform';
import type { FastifyReply } from 'fastify';
import { ImageTestsService, METADATA_URL } from './image-tests.service';
import { ImagesQueryService } from './images.service';

/** Shipped with the gateway: services/api-gateway/assets (from src/images and dist/images alike). */
export const SAMPLES_DIR = path.join(__dirname, '..', '..', 'assets', 'image-samples');
export const SAMPLE_NOT_FOUND = 'No such sample.';

let oversized: Buffer | undefined;
/** A JPEG header and then zeros: one byte over the limit. */
const oversizedJpeg = (): Buffer => {
  oversized ??= Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(IMAGE_MAX_BYTES - 3)]);
  return oversized;
};

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

  @Endpoint(api.images.sample)
  sample(
    @Input() { params }: EndpointInput<typeof api.images.sample>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): string {
    void reply.header('cache-control', 'no-store');
    switch (params.name) {
      case 'leaf.jpg':
      case 'leaf.png': {
        const type = params.name.endsWith('.png') ? 'image/png' : 'image/jpeg';
        void reply.header('content-type', type).send(readFileSync(path.join(SAMPLES_DIR, params.name)));
        return '';
      }
      case 'not-an-image.html':
        void reply.header('content-type', 'text/html; charset=utf-8');
        return '<!doctype html><title>Not an image</title><p>This page is not a picture.</p>';
      case 'oversized.jpg':
        void reply.header('content-type', 'image/jpeg').send(oversizedJpeg());
        return '';
      case 'redirect-to-private.jpg':
        void reply.redirect(METADATA_URL, 302);
        return '';
      case 'missing.jpg':
        throw new NotFoundException(SAMPLE_NOT_FOUND);
    }
  }
}
