// The presets domain's sections: `presets` (the default preset, who may switch) and `llm`, the older
// name of the default preset kept in step with presets.defaultId (lib/presets/service.ts writes both).
// lib/config/README.md, "A domain's section".
import { z } from 'zod'
import { doc } from '../config/field-doc.js'

export const presetsSection = doc(z.strictObject({
  defaultId: doc(z.string().min(1), ['Default preset', '默认预设', 'Preset used when nothing else is chosen.', '没有其他选择时使用的预设。'], { default: 'default' }),
  allowUserSwitch: doc(z.boolean(), ['Users may switch', '允许用户切换', 'Everyone may use #lx切换人设.', '所有人都可以使用 #lx切换人设。'], { default: true }),
  perUserPreset: doc(z.boolean(), ['Per-user preset', '按用户记住预设', 'A user\'s own choice applies to them.', '用户自己的选择对其本人生效。'], { default: false }),
  perGroupPreset: doc(z.boolean(), ['Per-group preset', '按群记住预设', 'A group\'s choice applies to the whole group.', '群里的选择对整个群生效。'], { default: false })
}), ['Presets', '预设', 'The default preset and who may switch.', '默认预设以及谁可以切换。'])

export const llmSection = doc(z.strictObject({
  defaultChatPresetId: doc(z.string(), ['Default chat preset (old name)', '默认聊天预设（旧名）', 'Kept in step with presets.defaultId.', '与 presets.defaultId 保持一致。'], {
    default: 'default',
    note: 'Preset used when nothing else is chosen (the older name of presets.defaultId, kept in step with it).'
  })
}), ['Model defaults', '模型默认值', 'The older name of the default preset setting.', '默认预设设置的旧名称。'])
