import { defineEntity, p } from '@mikro-orm/core';
import { eventEntities } from '../../src/index.js';

/** What a test handler does to the database, so a second effect of one event would show. */
export const HandledEffect = defineEntity({
  name: 'HandledEffect',
  tableName: 'handled_effect',
  properties: {
    id: p.uuid().primary(),
    eventId: p.uuid(),
    eventType: p.text(),
  },
});

export const testEntities = [...eventEntities, HandledEffect];
