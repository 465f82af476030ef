import { Body, Controller, HttpCode, HttpException, HttpStatus, Post, Req } from '@nestjs/common';
import { ApiBody, ApiCookieAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { LocationTestRequest, ProcessMessageRequest, ValidateMessageRequest } from '@sprout/contracts';
import { ZodValidationPipe } from '@sprout/platform';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { Public } from '../auth/public.decorator';
import { RedisKeys, WindowCounter } from '../common/redis-keys';
import { clientIp } from '../common/request-info';
import { openApiSchemaOf } from '../docs/openapi';
import type { LocationTestResponse, ProcessMessageResponse, ValidateMessageResponse } from './dto';
import { GardeningToolsService } from './gardening-tools.service';

/** Location tests accepted per client IP per window (the public page has no login to limit by). */
export const LOCATION_TEST_RATE_LIMIT = 60;
export const LOCATION_TEST_WINDOW_SECONDS = 60;
export const TOO_MANY_LOCATION_TESTS = 'Too many location tests. Please wait a minute and try again.';

const locationTestBody = new ZodValidationPipe(LocationTestRequest);

// Bodies are typed through z.output: the schema's own name would be emitted as the parameter's design type.
@ApiTags('gardening tools')
@Controller('api')
export class GardeningToolsController {
  constructor(
    private readonly tools: GardeningToolsService,
    private readonly counter: WindowCounter,
    private readonly keys: RedisKeys,
  ) {}

  @Public()
  @Post('test-location')
  @HttpCode(200)
  @ApiOperation({ summary: 'Detect the location in a message (public, rate-limited per IP)' })
  @ApiBody({ schema: openApiSchemaOf(LocationTestRequest) })
  async testLocation(@Req() request: FastifyRequest, @Body() body: unknown): Promise<LocationTestResponse> {
    // Counted before validation, so malformed requests cannot be sent without limit either.
    const attempts = await this.counter.hit(
      this.keys.key('rate', 'test-location', clientIp(request)),
      LOCATION_TEST_WINDOW_SECONDS,
    );
    if (attempts > LOCATION_TEST_RATE_LIMIT) {
      throw new HttpException(TOO_MANY_LOCATION_TESTS, HttpStatus.TOO_MANY_REQUESTS);
    }
    const { message } = locationTestBody.transform(body);
    return this.tools.testLocation(message);
  }

  @Post('validate-message')
  @HttpCode(200)
  @ApiCookieAuth('sprout_session')
  @ApiOperation({ summary: 'Classify a message as the SMS pipeline would (message validation tester)' })
  @ApiBody({ schema: openApiSchemaOf(ValidateMessageRequest) })
  validateMessage(
    @Body(new ZodValidationPipe(ValidateMessageRequest)) body: z.output<typeof ValidateMessageRequest>,
  ): ValidateMessageResponse {
    return this.tools.validate(body.message, body.userContext);
  }

  @Post('process-message')
  @HttpCode(200)
  @ApiCookieAuth('sprout_session')
  @ApiOperation({
    summary: 'Add the sender context to a message as the SMS pipeline would (input processing tester)',
  })
  @ApiBody({ schema: openApiSchemaOf(ProcessMessageRequest) })
  processMessage(
    @Body(new ZodValidationPipe(ProcessMessageRequest)) body: z.output<typeof ProcessMessageRequest>,
  ): ProcessMessageResponse {
    return this.tools.process(body.message, body.userContext);
  }
}
