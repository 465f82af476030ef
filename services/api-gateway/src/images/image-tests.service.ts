import type { AddressInfo } from 'node:net';
import {
  ConflictException,
  GatewayTimeoutException,
  Inject,
  Injectable,
  Logger,
  ServiceUnavailableException,
  UnprocessableEntityException,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import {
  IMAGE_CONTENT_TYPES,
  IMAGE_MAX_BYTES,
  IMAGE_MAX_REDIRECTS,
  type ImageProcessingTestRequest,
  type ImageProcessingTestResponse,
  type ImageValidationTestCase,
  type ImageValidationTestResponse,
  sniffImageType,
} from '@sprout/contracts';
import { recordInbound } from '@sprout/domain';
import { JobQueues, JobTimeoutError, SafeFetchError, safeFetch } from '@sprout/platform';
import { DataSource } from 'typeorm';
import { IMAGES_CONFIG, type ImagesConfig } from './images.config';

export const REAL_USER_PHONE =
  'That phone number belongs to a real user: image tests write only as test users.';
export const NOT_LISTENING = 'The image validation suite needs the gateway to be listening.';
export const testTimeoutMessage = (ms: number): string =>
  `The image analysis did not finish within ${Math.round(ms / 1000)} s; its result will still be recorded.`;

/** A stand-in for a private host the suite must refuse before connecting (never contacted). */
export const PRIVATE_TEST_URL = 'http://10.0.0.1/plant.jpg';
/** Where the redirect case points (the cloud metadata address; never contacted). */
export const METADATA_URL = 'http://169.254.169.254/latest/meta-data/';

interface SuiteCase {
  name: string;
  url: (base: string) => string;
  expectedValid: boolean;
}

/** The fixed suite (spec 001 §7, issue 13): two real pictures the stack serves, and six refusals. */
export const VALIDATION_CASES: readonly SuiteCase[] = [
  { name: 'JPEG served by the stack', url: (b) => `${b}/api/image-samples/leaf.jpg`, expectedValid: true },
  { name: 'PNG served by the stack', url: (b) => `${b}/api/image-samples/leaf.png`, expectedValid: true },
  {
    name: 'Not an image (HTML page)',
    url: (b) => `${b}/api/image-samples/not-an-image.html`,
    expectedValid: false,
  },
  {
    name: 'Oversized file (over 5 MB)',
    url: (b) => `${b}/api/image-samples/oversized.jpg`,
    expectedValid: false,
  },
  { name: 'Private address', url: () => PRIVATE_TEST_URL, expectedValid: false },
  { name: 'Not found (404)', url: (b) => `${b}/api/image-samples/missing.jpg`, expectedValid: false },
  {
    name: 'Redirect to a private address',
    url: (b) => `${b}/api/image-samples/redirect-to-private.jpg`,
    expectedValid: false,
  },
  {
    name: 'URL with credentials',
    url: (b) => b.replace('http://', 'http://user:secret@') + '/api/image-samples/leaf.jpg',
    expectedValid: false,
  },
];

/**
 * The image fetcher and validator of image-processor: safeFetch with the shared image policy
 * (types, 5 MB, redirects, no private addresses) and the bytes checked against their type.
 * `ownAddress` is the one private address allowed: the gateway's own loopback, for its samples.
 */
export const fetchAndValidateImage = async (
  url: string,
  options: { timeoutMs: number; ownAddress: string },
): Promise<{ contentType: string }> => {
  const response = await safeFetch(url, {
    maxBytes: IMAGE_MAX_BYTES,
    timeoutMs: options.timeoutMs,
    maxRedirects: IMAGE_MAX_REDIRECTS,
    allowedContentTypes: IMAGE_CONTENT_TYPES,
    headers: { Accept: IMAGE_CONTENT_TYPES.join(', ') },
    allowPrivateHosts: [options.ownAddress],
  });
  const actual = sniffImageType(response.body);
  if (actual === null || actual !== response.contentType) {
    throw new Error(`The content is not a ${response.contentType ?? 'known'} image`);
  }
  return { contentType: actual };
};

/** POST /api/test/image-processing and /api/test/image-validation. */
@Injectable()
export class ImageTestsService {
  private readonly logger = new Logger(ImageTestsService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly queues: JobQueues,
    private readonly adapterHost: HttpAdapterHost,
    @Inject(IMAGES_CONFIG) private readonly config: ImagesConfig,
  ) {}

  /** Records the test as an MMS of a test user and waits for image-processor's analysis of it. */
  async process(request: ImageProcessingTestRequest): Promise<ImageProcessingTestResponse> {
    const [existing] = await this.dataSource.query<{ is_test_user: boolean }[]>(
      'SELECT is_test_user FROM users WHERE phone_number = $1',
      [request.phoneNumber],
    );
    if (existing !== undefined && !existing.is_test_user) throw new ConflictException(REAL_USER_PHONE);
    const inbound = await recordInbound(this.dataSource, {
      from: { phoneNumber: request.phoneNumber, isTestUser: true },
      content: request.messageText,
      media: [{ url: request.imageUrl, contentType: 'image/jpeg' }],
      idleTimeoutMs: this.config.conversationIdleTimeoutMs,
    });
    if (inbound === null) throw new Error('The image test message was not recorded');

    let result;
    try {
      result = await this.queues.enqueueAndWait(
        'image.analyze',
        { messageId: inbound.messageId, mediaIndex: 0 },
        this.config.testTimeoutMs,
      );
    } catch (error) {
      if (error instanceof JobTimeoutError) {
        throw new GatewayTimeoutException(testTimeoutMessage(this.config.testTimeoutMs));
      }
      // A passing failure, retried until the last attempt: the message holds what went wrong.
      this.logger.warn(error, `Image test ${inbound.messageId} failed`);
      const [row] = await this.dataSource.query<{ image_processing_error: string | null }[]>(
        'SELECT image_processing_error FROM messages WHERE id = $1',
        [inbound.messageId],
      );
      throw new UnprocessableEntityException(
        row?.image_processing_error ?? (error instanceof Error ? error.message : 'Image analysis failed'),
      );
    }
    if (result.status !== 'processed' || result.analysis === null) {
      // Refused by the fetch policy (private address, not an image...) or by the model: recorded on the message.
      throw new UnprocessableEntityException(result.error ?? 'Image analysis failed');
    }
    return {
      success: true,
      messageId: inbound.messageId,
      imageProcessing: {
        analysis: result.analysis,
        tokensUsed: result.tokensUsed,
        cost: result.cost,
        model: result.model ?? '',
        processingTime: result.processingTime,
      },
    };
  }

  /** Runs every case through the image fetcher and validator, one after another. */
  async validate(): Promise<ImageValidationTestResponse> {
    const own = this.ownOrigin();
    const testResults: ImageValidationTestCase[] = [];
    for (const testCase of VALIDATION_CASES) {
      const imageUrl = testCase.url(own.origin);
      let actualValid = true;
      let reason: string | null = null;
      let contentType: string | null = null;
      try {
        contentType = (
          await fetchAndValidateImage(imageUrl, {
            timeoutMs: this.config.fetchTimeoutMs,
            ownAddress: own.address,
          })
        ).contentType;
      } catch (error) {
        if (!(error instanceof Error)) throw error;
        actualValid = false;
        reason = error instanceof SafeFetchError ? `${error.code}: ${error.message}` : error.message;
      }
      testResults.push({
        name: testCase.name,
        imageUrl,
        contentType,
        expectedValid: testCase.expectedValid,
        actualValid,
        success: actualValid === testCase.expectedValid,
        reason,
      });
    }
    return {
      testResults,
      passed: testResults.filter((r) => r.success).length,
      total: testResults.length,
    };
  }

  /** This gateway over loopback: the stack serves its own samples, whatever origin the browser uses. */
  private ownOrigin(): { origin: string; address: string } {
    const server = this.adapterHost.httpAdapter.getHttpServer() as { address(): AddressInfo | string | null };
    const info = server.address();
    if (info === null || typeof info === 'string') throw new ServiceUnavailableException(NOT_LISTENING);
    const v6 = info.family === 'IPv6' && info.address !== '::';
    const address = info.address === '0.0.0.0' || info.address === '::' ? '127.0.0.1' : info.address;
    return { origin: `http://${v6 ? `[${address}]` : address}:${info.port}`, address };
  }
}
