// ESLint rule: SQL lives in libs/domain. Outside it, refuses SQL text in string and template
// literals and the calls that run statements or reach TypeORM's repositories and managers.
'use strict';

/**
 * Statement shapes on a literal's text (a template's parts joined). Keywords in upper case, as
 * every statement here is written, so prose ("Select a model from the list") passes; INSERT INTO
 * and DELETE FROM, which prose does not say, in lower case too.
 */
const SQL_TEXT = [
  { name: 'SELECT ... FROM', pattern: /\bSELECT\b[\s\S]*?\bFROM\s+["(\w]/ },
  { name: 'INSERT INTO', pattern: /\b(INSERT\s+INTO|insert\s+into)\s+["\w]/ },
  { name: 'UPDATE ... SET', pattern: /\bUPDATE\s+["\w.]+(\s+\w+)?\s+SET\s+["\w]/ },
  { name: 'DELETE FROM', pattern: /\b(DELETE\s+FROM|delete\s+from)\s+["\w]/ },
  { name: 'WITH ... AS (', pattern: /\bWITH\s+(RECURSIVE\s+)?["\w]+\s+AS\s+(NOT\s+)?(MATERIALIZED\s+)?\(/ },
];

/** Methods that run SQL on whatever they are called on. */
const RUNS_SQL = new Set(['query', 'createQueryBuilder', 'createQueryRunner']);
/** Functions that hand out TypeORM repositories. */
const REPOSITORY_FACTORIES = new Set(['getRepository', 'InjectRepository', 'getCustomRepository']);
/** Reads and writes of an EntityManager or a Repository. */
const ENTITY_METHODS =
  /^(find\w*|save|insert|update|upsert|delete|remove|softDelete|softRemove|restore|count\w*|exist\w*|exists|sum|average|minimum|maximum|increment|decrement|clear|preload)$/;
/** What an EntityManager or a Repository is called. */
const ENTITY_HOLDER =
  /(^|[a-z_])(manager|Manager|repository|Repository|repositories|Repositories|repo|Repo)$/;

const nameOf = (node) => {
  if (!node) return null;
  if (node.type === 'Identifier') return node.name;
  if (node.type === 'PrivateIdentifier') return node.name;
  if (node.type === 'MemberExpression' && !node.computed) return nameOf(node.property);
  if (node.type === 'ThisExpression') return 'this';
  if (node.type === 'TSNonNullExpression') return nameOf(node.expression);
  return null;
};

const isRepositoryCall = (node) =>
  node?.type === 'CallExpression' && REPOSITORY_FACTORIES.has(nameOf(node.callee) ?? '');

/** @type {import('eslint').Rule.RuleModule} */
module.exports = {
  meta: {
    type: 'problem',
    docs: { description: 'SQL text, query builders and TypeORM repositories belong in libs/domain' },
    schema: [],
    messages: {
      sqlText:
        'SQL text ({{shape}}) outside libs/domain: move the statement into a libs/domain module and call it.',
      sqlCall: '`{{call}}` runs SQL outside libs/domain: move it into a libs/domain module and call that.',
      repository:
        '`{{call}}` reaches TypeORM outside libs/domain: move it into a libs/domain module and call that.',
    },
  },
  create(context) {
    const checkText = (node, text) => {
      const found = SQL_TEXT.find(({ pattern }) => pattern.test(text));
      if (found) context.report({ node, messageId: 'sqlText', data: { shape: found.name } });
    };
    return {
      Literal(node) {
        if (typeof node.value === 'string') checkText(node, node.value);
      },
      TemplateLiteral(node) {
        checkText(node, node.quasis.map((q) => q.value.cooked ?? q.value.raw).join(' x '));
      },
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type === 'Identifier' && REPOSITORY_FACTORIES.has(callee.name)) {
          context.report({ node, messageId: 'repository', data: { call: `${callee.name}()` } });
          return;
        }
        if (callee.type !== 'MemberExpression' || callee.computed) return;
        const method = nameOf(callee.property) ?? '';
        if (REPOSITORY_FACTORIES.has(method)) {
          context.report({ node, messageId: 'repository', data: { call: `.${method}()` } });
        } else if (RUNS_SQL.has(method)) {
          context.report({ node, messageId: 'sqlCall', data: { call: `.${method}()` } });
        } else if (
          ENTITY_METHODS.test(method) &&
          (isRepositoryCall(callee.object) || ENTITY_HOLDER.test(nameOf(callee.object) ?? ''))
        ) {
          context.report({
            node,
            messageId: 'repository',
            data: { call: `${nameOf(callee.object) ?? '(repository)'}.${method}()` },
          });
        }
      },
    };
  },
};
