import { type LocationTestResult, testersApi } from '@sprout/contracts';
import { ApiError, callEndpoint } from '../api/client';

/** The thrown text when the location test fails. */
export const LOCATION_TEST_FAILED = 'Failed to test location detection';

/**
 * POST /api/test-location. Any failure (an error answer or no answer at all) raises an error whose
 * message is LOCATION_TEST_FAILED; an ApiError keeps the status and the server's body for detail.
 */
export async function testLocation(message: string): Promise<LocationTestResult> {
  try {
    return await callEndpoint(
      testersApi.location,
      { body: { message } },
      { failureMessage: LOCATION_TEST_FAILED },
    );
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new Error(LOCATION_TEST_FAILED, { cause: error });
  }
}
