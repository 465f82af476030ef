import { Global, Module } from '@nestjs/common';
import { ProviderClients } from './provider-clients';

/** OpenAI and Twilio clients, shared by the health checks. */
@Global()
@Module({ providers: [ProviderClients], exports: [ProviderClients] })
export class ProvidersModule {}
