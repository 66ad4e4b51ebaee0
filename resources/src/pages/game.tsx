import { useState } from 'preact/hooks'
import { api } from '../api'
import { t, tv } from '../i18n'
import { SettingsForm, type SettingsField } from '../form-engine'
import type { CharacterPreset, GameConfig } from '../contracts'
import { Act, Card, EmptyState, Table, View, confirmDanger, useLoad } from '../ui'

/** The game settings GET/PUT /api/game/config take (the game section). */
const FIELDS: SettingsField[] = (['probability', 'enableTools', 'temperature', 'maxTokens'] as const).map(k => ({ path: `game.${k}` }))

/** One character's name, description and prompt (PUT /api/game/presets/:id). */
function CharacterEdit ({ character, onSaved }: { character: CharacterPreset, onSaved: () => void }) {
  const [f, setF] = useState({ name: character.name, description: character.description, systemPrompt: character.systemPrompt })
  const input = (k: 'name' | 'description') => <label>{t(k)}<input name={k} value={f[k]} onInput={e => setF({ ...f, [k]: (e.target as HTMLInputElement).value })} /></label>
  return <div data-testid="game-edit">
    <div class="form">{input('name')}{input('description')}</div>
    <label>{t('systemPrompt')}<textarea name="systemPrompt" rows={4} value={f.systemPrompt} onInput={e => setF({ ...f, systemPrompt: (e.target as HTMLTextAreaElement).value })} /></label>
    <Act kind="primary" testid="game-edit-save" done={t('saved')} run={async () => { await api(`/api/game/presets/${encodeURIComponent(character.id)}`, { method: 'PUT', json: f }); onSaved() }}>{t('save')}</Act>
  </div>
}

export default function Game () {
  const config = useLoad<GameConfig>('/api/game/config')
  const presets = useLoad<CharacterPreset[]>('/api/game/presets')
  const [f, setF] = useState({ name: '', description: '', systemPrompt: '' })
  const [editing, setEditing] = useState<CharacterPreset | null>(null)
  return <div>
    <Card title={t('config')}>
      <View load={config} isEmpty={() => false}>{d => <SettingsForm key={JSON.stringify(d)} testid="game-config" sections={[{ fields: FIELDS }]} root="game" resets={false}
        read={f => d[f.path.slice('game.'.length) as keyof typeof d]} onSave={async v => { await api('/api/game/config', { method: 'PUT', json: v }); config.reload() }} />}</View>
    </Card>
    <Card title={t('presets')}>
      <div class="form">
        <label>{t('name')}<input data-testid="game-name" value={f.name} onInput={e => setF({ ...f, name: (e.target as HTMLInputElement).value })} /></label>
        <label>{t('description')}<input data-testid="game-description" value={f.description} onInput={e => setF({ ...f, description: (e.target as HTMLInputElement).value })} /></label>
      </div>
      <label>{t('systemPrompt')}<textarea data-testid="game-prompt" rows={4} value={f.systemPrompt} onInput={e => setF({ ...f, systemPrompt: (e.target as HTMLTextAreaElement).value })} /></label>
      <Act kind="primary" testid="game-add" run={async () => { await api('/api/game/presets', { json: f }); setF({ name: '', description: '', systemPrompt: '' }); presets.reload() }}>{t('add')}</Act>
      {editing && <CharacterEdit key={editing.id} character={editing} onSaved={() => { setEditing(null); presets.reload() }} />}
      <View load={presets} empty={<EmptyState text={t('es.game')} />}>{d => <Table cols={['ID', t('name'), t('description'), '']} rows={d.map(p => [p.id, p.name, p.description,
        <div class="row"><button data-testid={`game-edit-${p.id}`} onClick={() => setEditing(p)}>{t('edit')}</button>
          <Act kind="danger" testid={`game-delete-${p.id}`} run={async () => {
            if (!await confirmDanger(tv('cf.delCharacter', { name: p.name }))) return
            await api(`/api/game/presets/${encodeURIComponent(p.id)}`, { method: 'DELETE' }); if (editing?.id === p.id) setEditing(null); presets.reload()
          }}>{t('delete')}</Act></div>])} />}</View>
    </Card>
  </div>
}
