import { Module } from '@nestjs/common';
import { ConsentService } from './consent.service';

/** Consent at send time and carrier opt-outs, shared by outbound and status. */
@Module({ providers: [ConsentService], exports: [ConsentService] })
export class ConsentModule {}
