import { Controller, HttpStatus, Res } from '@nestjs/common';
import { type EndpointInput, api } from '@sprout/contracts';
import { Endpoint, Input } from '@sprout/platform';
import type { FastifyReply } from 'fastify';
import { RateLimit } from '../common/rate-limit.guard';
import { WaitlistService } from './waitlist.service';

const ALREADY_REGISTERED = "You're already on the waitlist! We'll be in touch soon.";
const SIGNUP_WELCOME = "Welcome to the waitlist! We'll reach out when the beta is live and ready.";
const TOO_MANY_SIGNUPS = 'Too many signup attempts. Please try again later.';

@Controller()
export class WaitlistController {
  constructor(private readonly signups: WaitlistService) {}

  @Endpoint(api.waitlist.join)
  @RateLimit({
    name: 'beta-signup',
    windowSeconds: 60 * 60,
    limit: (config) => config.signupRateLimitPerHour,
    message: TOO_MANY_SIGNUPS,
  })
  async join(
    @Input() { body }: EndpointInput<typeof api.waitlist.join>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const outcome = await this.signups.signUp(body.email, body.region);
    if (!outcome.created) {
      // The table's status is 201; an email already on the list is not a new signup.
      void reply.status(HttpStatus.OK);
      return { success: true, message: ALREADY_REGISTERED, alreadyRegistered: true } as const;
    }
    return { success: true, message: SIGNUP_WELCOME, signup: outcome.signup } as const;
  }

  @Endpoint(api.waitlist.list)
  async list(@Input() { query }: EndpointInput<typeof api.waitlist.list>) {
    return this.signups.list(query.limit);
  }

  @Endpoint(api.waitlist.approve)
  async approve(@Input() { params }: EndpointInput<typeof api.waitlist.approve>) {
    return { success: true, signup: await this.signups.approve(params.id) } as const;
  }
}
