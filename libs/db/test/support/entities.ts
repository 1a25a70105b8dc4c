import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { AuditLogEntry } from '../../src/index.js';

/** A stand-in for a service's own entities: a unique column and a foreign key to break on purpose. */
export const Widget = defineEntity({
  name: 'Widget',
  tableName: 'widget',
  properties: {
    id: p.uuid().primary(),
    code: p.text().unique('widget_code_unique'),
    quantity: p.integer(),
  },
});
export type IWidget = InferEntity<typeof Widget>;

export const WidgetPart = defineEntity({
  name: 'WidgetPart',
  tableName: 'widget_part',
  properties: {
    id: p.uuid().primary(),
    widget: () => p.manyToOne(Widget),
  },
});

export const testEntities = [Widget, WidgetPart, AuditLogEntry];
