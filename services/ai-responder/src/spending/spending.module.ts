import { Module } from '@nestjs/common';
import { SpendingService } from './spending.service';

/** The daily spending limit: the ledger of paid calls (llm_calls, spend_reservations). */
@Module({ providers: [SpendingService], exports: [SpendingService] })
export class SpendingModule {}
