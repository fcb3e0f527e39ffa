// The front end's lint: ESLint's recommended rules on js/ (plain ES modules run in the
// browser), and a few that keep the code plain. Run by tests/test_quality.py and dev.py check.
import js from "@eslint/js";
import globals from "globals";

export default [
    js.configs.recommended,
    {
        files: ["js/**/*.js"],
        languageOptions: {
            ecmaVersion: 2022,
            sourceType: "module",
            globals: globals.browser,
        },
        rules: {
            eqeqeq: ["error", "always", { null: "ignore" }],
            "no-var": "error",
            "prefer-const": "error",
            "no-unused-vars": ["error", { args: "after-used", argsIgnorePattern: "^_" }],
            "no-shadow": "error",
            curly: ["error", "multi-line"],
        },
    },
];
