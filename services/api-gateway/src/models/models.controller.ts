import { Controller } from '@nestjs/common';
import { type EndpointInput, api } from '@sprout/contracts';
import { Endpoint, Input } from '@sprout/platform';
import { ModelsService } from './models.service';
import { OpenAiModelsService } from './openai-models.service';

/** Model management and the daily spending limit. */
@Controller()
export class ModelsController {
  constructor(
    private readonly models: ModelsService,
    private readonly openAiModels: OpenAiModelsService,
  ) {}

  @Endpoint(api.models.all)
  async all() {
    return this.models.list();
  }

  @Endpoint(api.models.stats)
  async stats(@Input() { query }: EndpointInput<typeof api.models.stats>) {
    return this.models.stats(query.showTestData);
  }

  @Endpoint(api.models.openAiModels)
  async openAiModelNames() {
    return this.openAiModels.list();
  }

  @Endpoint(api.models.create)
  async create(@Input() { body }: EndpointInput<typeof api.models.create>) {
    const { model, created } = await this.models.create(body);
    return { success: true as const, model, created };
  }

  @Endpoint(api.models.spendingLimit)
  async spendingLimit(@Input() { body }: EndpointInput<typeof api.models.spendingLimit>) {
    return { success: true as const, spendingLimit: await this.models.setSpendingLimit(body.spendingLimit) };
  }

  @Endpoint(api.models.costImpact)
  async costImpact(@Input() { query }: EndpointInput<typeof api.models.costImpact>) {
    return this.models.costImpact(query.fromModelId, query.toModelId);
  }

  @Endpoint(api.models.update)
  async update(@Input() { params, body }: EndpointInput<typeof api.models.update>) {
    return { success: true as const, model: await this.models.update(params.id, body) };
  }

  @Endpoint(api.models.setLive)
  async setLive(@Input() { params }: EndpointInput<typeof api.models.setLive>) {
    return { success: true as const, model: await this.models.setLive(params.id) };
  }

  @Endpoint(api.models.setFallback)
  async setFallback(@Input() { params }: EndpointInput<typeof api.models.setFallback>) {
    return { success: true as const, model: await this.models.setFallback(params.id) };
  }

  @Endpoint(api.models.remove)
  async remove(@Input() { params }: EndpointInput<typeof api.models.remove>) {
    return { success: true as const, model: await this.models.remove(params.id) };
  }
}
