import { Controller } from '@nestjs/common';
import { type EndpointInput, api } from '@sprout/contracts';
import { Endpoint, Input } from '@sprout/platform';
import { ModelsService } from '../models/models.service';
import { SimulatorMessagesService } from './simulator-messages.service';
import { TestUsersService } from './test-users.service';

@Controller()
export class SimulatorController {
  constructor(
    private readonly testUsers: TestUsersService,
    private readonly messages: SimulatorMessagesService,
    private readonly models: ModelsService,
  ) {}

  @Endpoint(api.simulator.testUsers)
  async list() {
    return this.testUsers.list();
  }

  @Endpoint(api.simulator.createTestUser)
  async create(@Input() { body }: EndpointInput<typeof api.simulator.createTestUser>) {
    // Only a model the pipeline may use: an active model of Model Management (400 otherwise).
    if (body.testUserModel !== null) await this.models.assertActiveModel(body.testUserModel);
    return this.testUsers.create(body.testUserName, body.testUserModel);
  }

  @Endpoint(api.simulator.deleteTestUser)
  async delete(@Input() { params }: EndpointInput<typeof api.simulator.deleteTestUser>) {
    await this.testUsers.delete(params.id);
    return { success: true };
  }

  @Endpoint(api.simulator.conversation)
  async conversation(@Input() { params }: EndpointInput<typeof api.simulator.conversation>) {
    return this.testUsers.conversation(params.id);
  }

  @Endpoint(api.simulator.sendMessage)
  async send(@Input() { body }: EndpointInput<typeof api.simulator.sendMessage>) {
    return this.messages.send(body);
  }
}
