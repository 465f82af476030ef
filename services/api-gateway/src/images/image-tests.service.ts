import {
  ConflictException,
  GatewayTimeoutException,
  Inject,
  Injectable,
  Logger,
  UnprocessableEntityException,
} from '@nestjs/common';
import type {
  ImageProcessingTestRequest,
  ImageProcessingTestResponse,
  ImageValidationTestCase,
  ImageValidationTestResponse,
} from '@sprout/contracts';
import { imageProcessingError, recordInbound, userIsTestUser } from '@sprout/domain';
import {
  type FetchPolicy,
  JobQueues,
  JobTimeoutError,
  SafeFetchError,
  adminUrlPolicy,
  fetchImage,
} from '@sprout/platform';
import { DataSource } from 'typeorm';
import { IMAGES_CONFIG, type ImagesConfig } from './images.config';

export const REAL_USER_PHONE =
  'That phone number belongs to a real user: image tests write only as test users.';
const testTimeoutMessage = (ms: number): string =>
  `The image analysis did not finish within ${Math.round(ms / 1000)} s; its result will still be recorded.`;

/** A stand-in for a private host the suite must refuse before connecting (never contacted). */
export const PRIVATE_TEST_URL = 'http://10.0.0.1/plant.jpg';

interface SuiteCase {
  name: string;
  url: (base: string) => string;
  expectedValid: boolean;
}

/**
 * The fixed suite: two real pictures the stack serves, and six refusals.
 * The stack's own samples are read in place by the admin URL policy, so the suite needs no
 * network: the redirect case's target and the private address are refused before connecting.
 */
const VALIDATION_CASES: readonly SuiteCase[] = [
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

/** POST /api/test/image-processing and /api/test/image-validation. */
@Injectable()
export class ImageTestsService {
  private readonly logger = new Logger(ImageTestsService.name);

  /** The stack's public origin: where the suite's own cases point. */
  private readonly origin: string;
  private readonly policy: FetchPolicy;

  constructor(
    private readonly dataSource: DataSource,
    private readonly queues: JobQueues,
    @Inject(IMAGES_CONFIG) private readonly config: ImagesConfig,
  ) {
    this.origin = new URL(config.publicBaseUrl).origin;
    this.policy = adminUrlPolicy({ publicBaseUrl: config.publicBaseUrl });
  }

  /** Records the test as an MMS of a test user and waits for image-processor's analysis of it. */
  async process(request: ImageProcessingTestRequest): Promise<ImageProcessingTestResponse> {
    if ((await userIsTestUser(this.dataSource, request.phoneNumber)) === false)
      throw new ConflictException(REAL_USER_PHONE);
    const inbound = await recordInbound(this.dataSource, {
      from: { phoneNumber: request.phoneNumber, isTestUser: true },
      content: request.messageText,
      // Typed in the console: fetched under the admin URL policy, not the MMS one.
      media: [{ url: request.imageUrl, contentType: 'image/jpeg', source: 'admin' }],
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
      const recorded = await imageProcessingError(this.dataSource, inbound.messageId);
      throw new UnprocessableEntityException(
        recorded ?? (error instanceof Error ? error.message : 'Image analysis failed'),
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

  /** Runs every case through the image fetcher and validator (the admin URL policy), one after another. */
  async validate(): Promise<ImageValidationTestResponse> {
    const testResults: ImageValidationTestCase[] = [];
    for (const testCase of VALIDATION_CASES) {
      const imageUrl = testCase.url(this.origin);
      let actualValid = true;
      let reason: string | null = null;
      let contentType: string | null = null;
      try {
        contentType = (await fetchImage(imageUrl, { ...this.policy, timeoutMs: this.config.fetchTimeoutMs }))
          .contentType;
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
}
