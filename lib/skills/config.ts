// The `skills` section: where skill documents are read from. lib/config/README.md, "A domain's section".
import { z } from 'zod'
import { doc } from '../config/field-doc.js'

export const skillsSection = doc(z.strictObject({
  dir: doc(z.string(), ['Extra skills folder', '额外技能目录', 'Scanned besides the bundled ones (empty: <data>/skills).', '除内置技能外还扫描的目录（留空：<data>/skills）。'], {
    default: '',
    note: 'Extra folder scanned for skills, besides the bundled ones (empty: <data>/skills).'
  }),
  watch: doc(z.boolean(), ['Watch the folder', '监视目录变化'], { default: true })
}), ['Skills', '技能', 'Skill documents the model may load.', '模型可以加载的技能文档。'])
