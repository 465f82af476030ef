import { Controller, Header, Inject } from '@nestjs/common';
import { api } from '@sprout/contracts';
import { CONFIG, Endpoint } from '@sprout/platform';
import type { ApiGatewayConfig } from '../config';

@Controller()
export class PublicConfigController {
  constructor(@Inject(CONFIG) private readonly config: ApiGatewayConfig) {}

  @Endpoint(api.public.config)
  @Header('Cache-Control', 'public, max-age=300')
  get() {
    return { phoneNumber: this.config.twilioPhoneNumber, contactEmail: this.config.contactEmail };
  }
}
