import { Module } from '@nestjs/common';
import { SpendingService } from './spending.service';

/** The daily spending limit and the llm_calls ledger. */
@Module({ providers: [SpendingService], exports: [SpendingService] })
export class SpendingModule {}
