import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { narration } from '../../test/fakes/script-drafts.ts';
import { languageProblem, recogniseLanguage } from './language.ts';

describe('recogniseLanguage', () => {
  const cases: [string, string | null][] = [
    ['English', 'en'],
    ['english', 'en'],
    ['en-US', 'en'],
    ['es', 'es'],
    ['Español', 'es'],
    ['pt-BR', 'pt'],
    ['Brazilian Portuguese', 'pt'],
    ['Spanish (Mexico)', 'es'],
    ['日本語', 'ja'],
    ['Japanese', 'ja'],
    ['Deutsch', 'de'],
    ['Klingon', null],
    ['Simple English', 'en'],
  ];
  for (const [input, code] of cases) {
    test(`${input} -> ${code}`, () => assert.equal(recogniseLanguage(input)?.code ?? null, code));
  }
});

const SPANISH =
  'El viejo faro está en el borde del acantilado y ha vigilado el mar durante doscientos años. ' +
  'Cada noche el guardián sube la escalera estrecha para encender la lámpara para los barcos que pasan en la oscuridad. ' +
  'En el invierno las tormentas son fuertes y las olas golpean las rocas con un sonido como de trueno.';
const GERMAN =
  'Der alte Leuchtturm steht am Rand der Klippe und er hat das Meer seit zweihundert Jahren beobachtet. ' +
  'Jede Nacht steigt der Wärter die schmale Treppe hinauf, um die Lampe für die Schiffe zu entzünden, die im Dunkeln vorbeifahren.';
const JAPANESE =
  '古い灯台は崖の端に立っていて、二百年もの間、海を見守ってきました。毎晩、灯台守は細い階段を上ってランプに火を灯します。';
const CHINESE = '古老的灯塔矗立在悬崖边上，两百年来一直守望着大海。每天晚上，守塔人都会爬上狭窄的楼梯点亮灯。';
const RUSSIAN =
  'Старый маяк стоит на краю утёса и уже двести лет наблюдает за морем. Каждую ночь смотритель поднимается по узкой лестнице.';
const POLISH_SHORT = 'Stara latarnia morska stoi na krawędzi klifu.';

describe('languageProblem', () => {
  const cases: [string, string, string, RegExp | null][] = [
    ['English narration for English', 'English', narration(60), null],
    ['English narration for en-GB', 'en-GB', narration(60), null],
    ['English narration for Spanish', 'Spanish', narration(60), /reads as English/],
    ['Spanish narration for Spanish', 'es', SPANISH, null],
    ['Spanish narration for English', 'English', SPANISH, /reads as Spanish/],
    ['German narration for German', 'German', GERMAN, null],
    ['English narration for Japanese', 'Japanese', narration(60), /Japanese.*0% of its letters/],
    ['Japanese narration for Japanese', 'ja', JAPANESE, null],
    ['Chinese narration for Japanese', 'Japanese', CHINESE, /no kana/],
    ['Chinese narration for Chinese', 'Chinese', CHINESE, null],
    ['Russian narration for Russian', 'Russian', RUSSIAN, null],
    ['English narration for Russian', 'Russian', narration(60), /cyrillic/],
    ['English narration for Polish (no list: only "not English")', 'Polish', narration(60), /reads as English/],
    ['too short for the function-word test', 'Spanish', narration(12), null],
    ['a language we do not know is not judged', 'Klingon', narration(60), null],
    ['Polish narration for Polish', 'Polish', POLISH_SHORT, null],
  ];
  for (const [name, lang, text, expected] of cases) {
    test(name, () => {
      const problem = languageProblem(lang, text);
      if (expected === null) assert.equal(problem, null);
      else assert.match(problem ?? '', expected);
    });
  }
});
