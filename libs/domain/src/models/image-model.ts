import { type Db, managerOf } from '../db';
import { AiModel } from '../entities/ai-model.entity';

/**
 * The ai_models row image analysis prices its call from: the live model (live and active), else
 * the row named `configuredName` (the configured default), else null.
 */
export async function imageModelRow(db: Db, configuredName: string): Promise<AiModel | null> {
  const repository = managerOf(db).getRepository(AiModel);
  return (
    (await repository.findOneBy({ isLive: true, isActive: true })) ??
    (await repository.findOneBy({ name: configuredName }))
  );
}
