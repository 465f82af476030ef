import { type Db, managerOf } from '../db';
import { AiModel } from '../entities/ai-model.entity';

/** Every ai_models row (the reply chain's catalog: a few rows, read whole). */
export async function allAiModels(db: Db): Promise<AiModel[]> {
  return managerOf(db).getRepository(AiModel).find();
}
