import { Module } from '@nestjs/common';
import { AdminSignupsController, SignupsController } from './signups.controller';
import { SignupsService } from './signups.service';

/** The public beta waitlist and its admin list and approval. */
@Module({
  controllers: [SignupsController, AdminSignupsController],
  providers: [SignupsService],
})
export class SignupsModule {}
