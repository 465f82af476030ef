import { Module } from '@nestjs/common';
import { ModelsModule } from '../models/models.module';
import { SimulatorMessagesService } from './simulator-messages.service';
import { simulatorConfig } from './simulator.config';
import { SimulatorController } from './simulator.controller';
import { TestUsersService } from './test-users.service';

/** The conversation simulator: test users, and their messages through the real SMS pipeline. */
@Module({
  imports: [ModelsModule],
  controllers: [SimulatorController],
  providers: [simulatorConfig.provider, TestUsersService, SimulatorMessagesService],
})
export class SimulatorModule {}
