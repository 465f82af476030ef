import { Controller, Get, Header, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CONFIG } from '@sprout/platform';
import { Public } from '../auth/public.decorator';
import type { ApiGatewayConfig } from '../config';
import type { PublicConfig } from './dto';

@ApiTags('public site')
@Controller('api/public-config')
export class PublicConfigController {
  constructor(@Inject(CONFIG) private readonly config: ApiGatewayConfig) {}

  @Public()
  @Get()
  @Header('Cache-Control', 'public, max-age=300')
  @ApiOperation({ summary: 'The phone number and contact address the public pages show' })
  get(): PublicConfig {
    return { phoneNumber: this.config.twilioPhoneNumber, contactEmail: this.config.contactEmail };
  }
}
