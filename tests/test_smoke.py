import solwidget as sw


def test_every_game_deals_and_round_trips():
    for game_id in sw.games():
        game = sw.load_game(game_id)
        state = game.deal(1)
        assert game.state_from_dict(state.to_dict()) == state
        for move in state.legal_moves():
            assert game.parse_move(str(move)) == move
            state.play(move)
