import { Module } from '@nestjs/common';
import { ConsentService } from './consent.service';

/** STOP / START / HELP keywords and carrier opt-outs, shared by webhooks, outbound and status. */
@Module({ providers: [ConsentService], exports: [ConsentService] })
export class ConsentModule {}
