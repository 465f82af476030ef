import { Controller } from '@nestjs/common';
import { type EndpointInput, api } from '@sprout/contracts';
import { Endpoint, Input } from '@sprout/platform';
import { RateLimit } from '../common/rate-limit.guard';
import { GardeningToolsService } from './gardening-tools.service';

/** Location tests accepted per client IP per window (the public page has no login to limit by). */
export const LOCATION_TEST_RATE_LIMIT = 60;
const LOCATION_TEST_WINDOW_SECONDS = 60;
export const TOO_MANY_LOCATION_TESTS = 'Too many location tests. Please wait a minute and try again.';

@Controller()
export class GardeningToolsController {
  constructor(private readonly tools: GardeningToolsService) {}

  @Endpoint(api.testers.location)
  @RateLimit({
    name: 'test-location',
    windowSeconds: LOCATION_TEST_WINDOW_SECONDS,
    limit: LOCATION_TEST_RATE_LIMIT,
    message: TOO_MANY_LOCATION_TESTS,
  })
  testLocation(@Input() { body }: EndpointInput<typeof api.testers.location>) {
    return this.tools.testLocation(body.message);
  }

  @Endpoint(api.testers.validate)
  validateMessage(@Input() { body }: EndpointInput<typeof api.testers.validate>) {
    return this.tools.validate(body.message, body.userContext);
  }

  @Endpoint(api.testers.process)
  processMessage(@Input() { body }: EndpointInput<typeof api.testers.process>) {
    return this.tools.process(body.message, body.userContext);
  }
}
