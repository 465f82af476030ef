import { callEndpoint } from '@sprout/ui';
import {
  type ImageMessageDto,
  type ImageProcessingTestResponse,
  type ImageStats,
  type ImageValidationTestResponse,
  type EndpointRequest,
  api,
} from '@sprout/contracts';

export type ImageProcessingTestInput = EndpointRequest<typeof api.images.processingTest>['body'];

export function getImageMessages(): Promise<ImageMessageDto[]> {
  return callEndpoint(api.images.messages, {});
}

export function getImageStats(): Promise<ImageStats> {
  return callEndpoint(api.images.stats, {});
}

export function testImageProcessing(body: ImageProcessingTestInput): Promise<ImageProcessingTestResponse> {
  return callEndpoint(api.images.processingTest, { body });
}

export function testImageValidation(): Promise<ImageValidationTestResponse> {
  return callEndpoint(api.images.validationTest, {});
}
