// Built-in image presets: the user's text after the keyword replaces {{input}}.
import type { ImagePreset } from './types.js'

export const BUILTIN_IMAGE_PRESETS: readonly ImagePreset[] = [
  { uid: 'builtin-draw', name: '绘图', keywords: ['画图', '绘图', '画一张'], needImage: false, prompt: '{{input}}' },
  { uid: 'builtin-anime', name: '二次元', keywords: ['二次元画'], needImage: false, prompt: 'anime style illustration, clean line art, vivid colors, detailed background: {{input}}' },
  { uid: 'builtin-figure', name: '手办化', keywords: ['手办化'], needImage: true, prompt: 'Turn the character in the image into a realistic 1/7 scale PVC figure on a desk, with its packaging box behind it. {{input}}' },
  { uid: 'builtin-sketch', name: '线稿', keywords: ['线稿化'], needImage: true, prompt: 'Convert the image into a clean black and white pencil line drawing. {{input}}' }
]
