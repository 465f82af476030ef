import {
  type CanActivate,
  type ExecutionContext,
  ForbiddenException,
  Inject,
  Injectable,
  Logger,
} from '@nestjs/common';
import { CONFIG } from '@sprout/platform';
import { validateTwilioSignature } from '@sprout/sms';
import type { FastifyRequest } from 'fastify';
import type { SmsGatewayConfig } from '../config';

/**
 * Accepts a webhook only with a valid X-Twilio-Signature, computed on the public URL Twilio
 * called (PUBLIC_BASE_URL + path and query) and the form parameters, with TWILIO_AUTH_TOKEN.
 */
@Injectable()
export class TwilioSignatureGuard implements CanActivate {
  private readonly logger = new Logger(TwilioSignatureGuard.name);

  constructor(@Inject(CONFIG) private readonly config: SmsGatewayConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const body: unknown = request.body;
    const params =
      typeof body === 'object' && body !== null ? (body as Record<string, string | string[]>) : {};
    const valid = validateTwilioSignature({
      authToken: this.config.twilioAuthToken,
      url: `${this.config.publicBaseUrl}${request.url}`,
      params,
      signature: request.headers['x-twilio-signature'],
    });
    if (!valid) {
      this.logger.warn(
        `Rejected a webhook with an invalid Twilio signature: ${request.method} ${request.url}`,
      );
      throw new ForbiddenException('Invalid Twilio signature');
    }
    return true;
  }
}
