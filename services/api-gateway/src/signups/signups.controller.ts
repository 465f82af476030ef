import {
  BadRequestException,
  Body,
  Controller,
  Get,
  HttpCode,
  HttpException,
  HttpStatus,
  Inject,
  Param,
  Post,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import { ApiBody, ApiCookieAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { BetaSignupRequest, type BetaSignupDto, type BetaSignupResponse, queryInt } from '@sprout/contracts';
import { CONFIG, ZodValidationPipe } from '@sprout/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { Public } from '../auth/public.decorator';
import { RedisKeys, WindowCounter } from '../common/redis-keys';
import { clientIp } from '../common/request-info';
import { openApiSchemaOf } from '../docs/openapi';
import type { ApiGatewayConfig } from '../config';
import type { BetaSignupApproveResponse, BetaSignupDuplicateResponse } from './dto';
import { SignupsService } from './signups.service';

export const MISSING_SIGNUP_FIELDS = 'Please provide both email and region.';
export const ZIP_TOO_LONG = 'Please enter a valid zip code (at most 10 characters).';
export const ALREADY_REGISTERED = "You're already on the waitlist! We'll be in touch soon.";
export const SIGNUP_WELCOME = "Welcome to the waitlist! We'll reach out when the beta is live and ready.";
export const TOO_MANY_SIGNUPS = 'Too many signup attempts. Please try again later.';
const MAX_ZIP_LENGTH = 10;

const isBlank = (value: unknown): boolean => typeof value !== 'string' || value.trim() === '';

@ApiTags('beta waitlist')
@Controller('api/beta-signup')
export class SignupsController {
  constructor(
    private readonly signups: SignupsService,
    private readonly counter: WindowCounter,
    private readonly keys: RedisKeys,
    @Inject(CONFIG) private readonly config: ApiGatewayConfig,
  ) {}

  @Public()
  @Post()
  @ApiOperation({ summary: 'Join the beta waitlist (201 new, 200 already registered)' })
  @ApiBody({ schema: openApiSchemaOf(BetaSignupRequest) })
  async signUp(
    @Body() body: unknown,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<BetaSignupResponse | BetaSignupDuplicateResponse> {
    const attempts = await this.counter.hit(this.keys.key('rate', 'beta-signup', clientIp(request)), 60 * 60);
    if (attempts > this.config.signupRateLimitPerHour) {
      throw new HttpException(TOO_MANY_SIGNUPS, HttpStatus.TOO_MANY_REQUESTS);
    }

    const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    if (isBlank(fields.email) || isBlank(fields.region)) throw new BadRequestException(MISSING_SIGNUP_FIELDS);
    const parsed = BetaSignupRequest.safeParse({ email: String(fields.email).trim(), region: fields.region });
    if (!parsed.success)
      throw new BadRequestException(parsed.error.issues[0]?.message ?? MISSING_SIGNUP_FIELDS);
    const zipCode = parsed.data.region;
    if (zipCode.length > MAX_ZIP_LENGTH) throw new BadRequestException(ZIP_TOO_LONG);

    const outcome = await this.signups.signUp(parsed.data.email, zipCode);
    if (!outcome.created) {
      void reply.status(HttpStatus.OK);
      return { success: true, message: ALREADY_REGISTERED, alreadyRegistered: true };
    }
    void reply.status(HttpStatus.CREATED);
    return { success: true, message: SIGNUP_WELCOME, signup: outcome.signup };
  }
}

const ListQuery = z.object({ limit: queryInt(500, 1, 1000) });
const SignupId = z.uuid({ error: 'Invalid beta signup id.' });

@ApiTags('beta waitlist')
@ApiCookieAuth('sprout_session')
@Controller('api/admin/beta-signups')
export class AdminSignupsController {
  constructor(private readonly signups: SignupsService) {}

  @Get()
  @ApiOperation({ summary: 'Beta signups, newest first' })
  async list(
    @Query(new ZodValidationPipe(ListQuery)) query: z.output<typeof ListQuery>,
  ): Promise<BetaSignupDto[]> {
    return this.signups.list(query.limit);
  }

  @Post(':id/approve')
  @HttpCode(200)
  @ApiOperation({ summary: 'Approve a beta signup' })
  async approve(@Param('id') id: string): Promise<BetaSignupApproveResponse> {
    const parsed = SignupId.safeParse(id);
    if (!parsed.success) throw new BadRequestException('Invalid beta signup id.');
    return { success: true, signup: await this.signups.approve(parsed.data) };
  }
}
