import { Module } from '@nestjs/common';
import { SignupsController } from './signups.controller';
import { SignupsService } from './signups.service';

/** The public beta waitlist and its admin list and approval. */
@Module({
  controllers: [SignupsController],
  providers: [SignupsService],
})
export class SignupsModule {}
