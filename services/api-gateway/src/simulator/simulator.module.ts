import { Module } from '@nestjs/common';
import { ModelsModule } from '../models/models.module';
import { SimulatorMessagesService } from './simulator-messages.service';
import { SIMULATOR_CONFIG, loadSimulatorConfig } from './simulator.config';
import { SimulatorController } from './simulator.controller';
import { TestUsersService } from './test-users.service';

/** The conversation simulator: test users, and their messages through the real SMS pipeline. */
@Module({
  imports: [ModelsModule],
  controllers: [SimulatorController],
  providers: [
    { provide: SIMULATOR_CONFIG, useFactory: () => loadSimulatorConfig() },
    TestUsersService,
    SimulatorMessagesService,
  ],
})
export class SimulatorModule {}
