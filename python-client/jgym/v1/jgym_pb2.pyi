from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Dtype(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DTYPE_UNSPECIFIED: _ClassVar[Dtype]
    DTYPE_UINT8: _ClassVar[Dtype]
    DTYPE_INT8: _ClassVar[Dtype]
    DTYPE_INT16: _ClassVar[Dtype]
    DTYPE_INT32: _ClassVar[Dtype]
    DTYPE_FLOAT32: _ClassVar[Dtype]
    DTYPE_BOOL: _ClassVar[Dtype]
    DTYPE_INT64: _ClassVar[Dtype]

class TensorEncoding(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TENSOR_ENCODING_UNSPECIFIED: _ClassVar[TensorEncoding]
    TENSOR_ENCODING_WORD_DELTA: _ClassVar[TensorEncoding]

class PlaneKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PLANE_KIND_UNSPECIFIED: _ClassVar[PlaneKind]
    PLANE_KIND_CODE: _ClassVar[PlaneKind]
    PLANE_KIND_BITS: _ClassVar[PlaneKind]
    PLANE_KIND_SCALAR: _ClassVar[PlaneKind]

class BotKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    BOT_KIND_UNSPECIFIED: _ClassVar[BotKind]
    BOT_KIND_POLICY: _ClassVar[BotKind]
    BOT_KIND_CPP: _ClassVar[BotKind]

class RewardMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    REWARD_MODE_UNSPECIFIED: _ClassVar[RewardMode]
    REWARD_MODE_SCORE_DELTA: _ClassVar[RewardMode]
    REWARD_MODE_RELATIVE: _ClassVar[RewardMode]
    REWARD_MODE_RANK: _ClassVar[RewardMode]

class AutoresetMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    AUTORESET_MODE_UNSPECIFIED: _ClassVar[AutoresetMode]
    AUTORESET_MODE_NEXT_STEP: _ClassVar[AutoresetMode]
    AUTORESET_MODE_SAME_STEP: _ClassVar[AutoresetMode]
    AUTORESET_MODE_DISABLED: _ClassVar[AutoresetMode]
DTYPE_UNSPECIFIED: Dtype
DTYPE_UINT8: Dtype
DTYPE_INT8: Dtype
DTYPE_INT16: Dtype
DTYPE_INT32: Dtype
DTYPE_FLOAT32: Dtype
DTYPE_BOOL: Dtype
DTYPE_INT64: Dtype
TENSOR_ENCODING_UNSPECIFIED: TensorEncoding
TENSOR_ENCODING_WORD_DELTA: TensorEncoding
PLANE_KIND_UNSPECIFIED: PlaneKind
PLANE_KIND_CODE: PlaneKind
PLANE_KIND_BITS: PlaneKind
PLANE_KIND_SCALAR: PlaneKind
BOT_KIND_UNSPECIFIED: BotKind
BOT_KIND_POLICY: BotKind
BOT_KIND_CPP: BotKind
REWARD_MODE_UNSPECIFIED: RewardMode
REWARD_MODE_SCORE_DELTA: RewardMode
REWARD_MODE_RELATIVE: RewardMode
REWARD_MODE_RANK: RewardMode
AUTORESET_MODE_UNSPECIFIED: AutoresetMode
AUTORESET_MODE_NEXT_STEP: AutoresetMode
AUTORESET_MODE_SAME_STEP: AutoresetMode
AUTORESET_MODE_DISABLED: AutoresetMode

class Tensor(_message.Message):
    __slots__ = ("dtype", "shape", "data", "encoding")
    DTYPE_FIELD_NUMBER: _ClassVar[int]
    SHAPE_FIELD_NUMBER: _ClassVar[int]
    DATA_FIELD_NUMBER: _ClassVar[int]
    ENCODING_FIELD_NUMBER: _ClassVar[int]
    dtype: Dtype
    shape: _containers.RepeatedScalarFieldContainer[int]
    data: bytes
    encoding: TensorEncoding
    def __init__(self, dtype: _Optional[_Union[Dtype, str]] = ..., shape: _Optional[_Iterable[int]] = ..., data: _Optional[bytes] = ..., encoding: _Optional[_Union[TensorEncoding, str]] = ...) -> None: ...

class TensorSpec(_message.Message):
    __slots__ = ("name", "dtype", "shape", "low", "high", "description", "planes", "columns")
    NAME_FIELD_NUMBER: _ClassVar[int]
    DTYPE_FIELD_NUMBER: _ClassVar[int]
    SHAPE_FIELD_NUMBER: _ClassVar[int]
    LOW_FIELD_NUMBER: _ClassVar[int]
    HIGH_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    PLANES_FIELD_NUMBER: _ClassVar[int]
    COLUMNS_FIELD_NUMBER: _ClassVar[int]
    name: str
    dtype: Dtype
    shape: _containers.RepeatedScalarFieldContainer[int]
    low: float
    high: float
    description: str
    planes: _containers.RepeatedCompositeFieldContainer[PlaneSpec]
    columns: _containers.RepeatedCompositeFieldContainer[ColumnSpec]
    def __init__(self, name: _Optional[str] = ..., dtype: _Optional[_Union[Dtype, str]] = ..., shape: _Optional[_Iterable[int]] = ..., low: _Optional[float] = ..., high: _Optional[float] = ..., description: _Optional[str] = ..., planes: _Optional[_Iterable[_Union[PlaneSpec, _Mapping]]] = ..., columns: _Optional[_Iterable[_Union[ColumnSpec, _Mapping]]] = ...) -> None: ...

class PlaneSpec(_message.Message):
    __slots__ = ("name", "kind", "count", "scale")
    NAME_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    SCALE_FIELD_NUMBER: _ClassVar[int]
    name: str
    kind: PlaneKind
    count: int
    scale: float
    def __init__(self, name: _Optional[str] = ..., kind: _Optional[_Union[PlaneKind, str]] = ..., count: _Optional[int] = ..., scale: _Optional[float] = ...) -> None: ...

class ColumnSpec(_message.Message):
    __slots__ = ("name", "scale")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SCALE_FIELD_NUMBER: _ClassVar[int]
    name: str
    scale: float
    def __init__(self, name: _Optional[str] = ..., scale: _Optional[float] = ...) -> None: ...

class GameSpec(_message.Message):
    __slots__ = ("id", "observation_version", "num_seats", "observation", "action", "action_order", "num_actions", "num_rounds", "default_config", "unit_row", "unit_col", "wrap_columns", "policy_mask", "name", "strong_bot", "action_orders", "opponent_orders", "credit_weights", "unit_reward", "opt_in")
    ID_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_VERSION_FIELD_NUMBER: _ClassVar[int]
    NUM_SEATS_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    ACTION_ORDER_FIELD_NUMBER: _ClassVar[int]
    NUM_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    NUM_ROUNDS_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_CONFIG_FIELD_NUMBER: _ClassVar[int]
    UNIT_ROW_FIELD_NUMBER: _ClassVar[int]
    UNIT_COL_FIELD_NUMBER: _ClassVar[int]
    WRAP_COLUMNS_FIELD_NUMBER: _ClassVar[int]
    POLICY_MASK_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    STRONG_BOT_FIELD_NUMBER: _ClassVar[int]
    ACTION_ORDERS_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_ORDERS_FIELD_NUMBER: _ClassVar[int]
    CREDIT_WEIGHTS_FIELD_NUMBER: _ClassVar[int]
    UNIT_REWARD_FIELD_NUMBER: _ClassVar[int]
    OPT_IN_FIELD_NUMBER: _ClassVar[int]
    id: str
    observation_version: str
    num_seats: int
    observation: _containers.RepeatedCompositeFieldContainer[TensorSpec]
    action: TensorSpec
    action_order: TensorSpec
    num_actions: int
    num_rounds: int
    default_config: str
    unit_row: int
    unit_col: int
    wrap_columns: bool
    policy_mask: str
    name: str
    strong_bot: str
    action_orders: _containers.RepeatedScalarFieldContainer[str]
    opponent_orders: _containers.RepeatedScalarFieldContainer[str]
    credit_weights: _containers.RepeatedCompositeFieldContainer[CreditWeight]
    unit_reward: TensorSpec
    opt_in: _containers.RepeatedCompositeFieldContainer[TensorSpec]
    def __init__(self, id: _Optional[str] = ..., observation_version: _Optional[str] = ..., num_seats: _Optional[int] = ..., observation: _Optional[_Iterable[_Union[TensorSpec, _Mapping]]] = ..., action: _Optional[_Union[TensorSpec, _Mapping]] = ..., action_order: _Optional[_Union[TensorSpec, _Mapping]] = ..., num_actions: _Optional[int] = ..., num_rounds: _Optional[int] = ..., default_config: _Optional[str] = ..., unit_row: _Optional[int] = ..., unit_col: _Optional[int] = ..., wrap_columns: _Optional[bool] = ..., policy_mask: _Optional[str] = ..., name: _Optional[str] = ..., strong_bot: _Optional[str] = ..., action_orders: _Optional[_Iterable[str]] = ..., opponent_orders: _Optional[_Iterable[str]] = ..., credit_weights: _Optional[_Iterable[_Union[CreditWeight, _Mapping]]] = ..., unit_reward: _Optional[_Union[TensorSpec, _Mapping]] = ..., opt_in: _Optional[_Iterable[_Union[TensorSpec, _Mapping]]] = ...) -> None: ...

class CreditWeight(_message.Message):
    __slots__ = ("name", "default", "description")
    NAME_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    name: str
    default: float
    description: str
    def __init__(self, name: _Optional[str] = ..., default: _Optional[float] = ..., description: _Optional[str] = ...) -> None: ...

class GetVersionRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class GetVersionResponse(_message.Message):
    __slots__ = ("server_version", "protocol_version", "observation_versions")
    class ObservationVersionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    SERVER_VERSION_FIELD_NUMBER: _ClassVar[int]
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_VERSIONS_FIELD_NUMBER: _ClassVar[int]
    server_version: str
    protocol_version: int
    observation_versions: _containers.ScalarMap[str, str]
    def __init__(self, server_version: _Optional[str] = ..., protocol_version: _Optional[int] = ..., observation_versions: _Optional[_Mapping[str, str]] = ...) -> None: ...

class ListGamesRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListGamesResponse(_message.Message):
    __slots__ = ("games",)
    GAMES_FIELD_NUMBER: _ClassVar[int]
    games: _containers.RepeatedCompositeFieldContainer[GameSpec]
    def __init__(self, games: _Optional[_Iterable[_Union[GameSpec, _Mapping]]] = ...) -> None: ...

class ListBotsRequest(_message.Message):
    __slots__ = ("game",)
    GAME_FIELD_NUMBER: _ClassVar[int]
    game: str
    def __init__(self, game: _Optional[str] = ...) -> None: ...

class ListBotsResponse(_message.Message):
    __slots__ = ("bots", "prefixes")
    BOTS_FIELD_NUMBER: _ClassVar[int]
    PREFIXES_FIELD_NUMBER: _ClassVar[int]
    bots: _containers.RepeatedScalarFieldContainer[str]
    prefixes: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, bots: _Optional[_Iterable[str]] = ..., prefixes: _Optional[_Iterable[str]] = ...) -> None: ...

class SeatSpec(_message.Message):
    __slots__ = ("bot",)
    BOT_FIELD_NUMBER: _ClassVar[int]
    bot: str
    def __init__(self, bot: _Optional[str] = ...) -> None: ...

class UploadBotRequest(_message.Message):
    __slots__ = ("kind", "name", "content", "game")
    KIND_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    kind: BotKind
    name: str
    content: bytes
    game: str
    def __init__(self, kind: _Optional[_Union[BotKind, str]] = ..., name: _Optional[str] = ..., content: _Optional[bytes] = ..., game: _Optional[str] = ...) -> None: ...

class UploadBotResponse(_message.Message):
    __slots__ = ("bot", "sha256", "quota_used_bytes", "quota_bytes")
    BOT_FIELD_NUMBER: _ClassVar[int]
    SHA256_FIELD_NUMBER: _ClassVar[int]
    QUOTA_USED_BYTES_FIELD_NUMBER: _ClassVar[int]
    QUOTA_BYTES_FIELD_NUMBER: _ClassVar[int]
    bot: str
    sha256: str
    quota_used_bytes: int
    quota_bytes: int
    def __init__(self, bot: _Optional[str] = ..., sha256: _Optional[str] = ..., quota_used_bytes: _Optional[int] = ..., quota_bytes: _Optional[int] = ...) -> None: ...

class CreateSessionRequest(_message.Message):
    __slots__ = ("game", "num_envs", "seats", "shuffle_seats", "reward_mode", "autoreset_mode", "config", "batch_size", "idle_timeout_seconds", "trace_env0", "seed_stride", "observation_delta", "opponent_order", "action_order", "unit_rewards", "credit_weights", "tensors")
    class CreditWeightsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: float
        def __init__(self, key: _Optional[str] = ..., value: _Optional[float] = ...) -> None: ...
    GAME_FIELD_NUMBER: _ClassVar[int]
    NUM_ENVS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SHUFFLE_SEATS_FIELD_NUMBER: _ClassVar[int]
    REWARD_MODE_FIELD_NUMBER: _ClassVar[int]
    AUTORESET_MODE_FIELD_NUMBER: _ClassVar[int]
    CONFIG_FIELD_NUMBER: _ClassVar[int]
    BATCH_SIZE_FIELD_NUMBER: _ClassVar[int]
    IDLE_TIMEOUT_SECONDS_FIELD_NUMBER: _ClassVar[int]
    TRACE_ENV0_FIELD_NUMBER: _ClassVar[int]
    SEED_STRIDE_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_DELTA_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_ORDER_FIELD_NUMBER: _ClassVar[int]
    ACTION_ORDER_FIELD_NUMBER: _ClassVar[int]
    UNIT_REWARDS_FIELD_NUMBER: _ClassVar[int]
    CREDIT_WEIGHTS_FIELD_NUMBER: _ClassVar[int]
    TENSORS_FIELD_NUMBER: _ClassVar[int]
    game: str
    num_envs: int
    seats: _containers.RepeatedCompositeFieldContainer[SeatSpec]
    shuffle_seats: bool
    reward_mode: RewardMode
    autoreset_mode: AutoresetMode
    config: str
    batch_size: int
    idle_timeout_seconds: int
    trace_env0: str
    seed_stride: int
    observation_delta: bool
    opponent_order: str
    action_order: str
    unit_rewards: bool
    credit_weights: _containers.ScalarMap[str, float]
    tensors: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, game: _Optional[str] = ..., num_envs: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[SeatSpec, _Mapping]]] = ..., shuffle_seats: _Optional[bool] = ..., reward_mode: _Optional[_Union[RewardMode, str]] = ..., autoreset_mode: _Optional[_Union[AutoresetMode, str]] = ..., config: _Optional[str] = ..., batch_size: _Optional[int] = ..., idle_timeout_seconds: _Optional[int] = ..., trace_env0: _Optional[str] = ..., seed_stride: _Optional[int] = ..., observation_delta: _Optional[bool] = ..., opponent_order: _Optional[str] = ..., action_order: _Optional[str] = ..., unit_rewards: _Optional[bool] = ..., credit_weights: _Optional[_Mapping[str, float]] = ..., tensors: _Optional[_Iterable[str]] = ...) -> None: ...

class CreateSessionResponse(_message.Message):
    __slots__ = ("session_id", "game", "num_learners", "batch_size", "max_response_bytes", "max_request_bytes", "local_socket", "local_secret")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    NUM_LEARNERS_FIELD_NUMBER: _ClassVar[int]
    BATCH_SIZE_FIELD_NUMBER: _ClassVar[int]
    MAX_RESPONSE_BYTES_FIELD_NUMBER: _ClassVar[int]
    MAX_REQUEST_BYTES_FIELD_NUMBER: _ClassVar[int]
    LOCAL_SOCKET_FIELD_NUMBER: _ClassVar[int]
    LOCAL_SECRET_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    game: GameSpec
    num_learners: int
    batch_size: int
    max_response_bytes: int
    max_request_bytes: int
    local_socket: str
    local_secret: bytes
    def __init__(self, session_id: _Optional[str] = ..., game: _Optional[_Union[GameSpec, _Mapping]] = ..., num_learners: _Optional[int] = ..., batch_size: _Optional[int] = ..., max_response_bytes: _Optional[int] = ..., max_request_bytes: _Optional[int] = ..., local_socket: _Optional[str] = ..., local_secret: _Optional[bytes] = ...) -> None: ...

class CloseSessionRequest(_message.Message):
    __slots__ = ("session_id",)
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    def __init__(self, session_id: _Optional[str] = ...) -> None: ...

class CloseSessionResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ResetRequest(_message.Message):
    __slots__ = ("seed", "env_ids", "seed_given", "trace_start")
    SEED_FIELD_NUMBER: _ClassVar[int]
    ENV_IDS_FIELD_NUMBER: _ClassVar[int]
    SEED_GIVEN_FIELD_NUMBER: _ClassVar[int]
    TRACE_START_FIELD_NUMBER: _ClassVar[int]
    seed: int
    env_ids: _containers.RepeatedScalarFieldContainer[int]
    seed_given: bool
    trace_start: TraceStart
    def __init__(self, seed: _Optional[int] = ..., env_ids: _Optional[_Iterable[int]] = ..., seed_given: _Optional[bool] = ..., trace_start: _Optional[_Union[TraceStart, _Mapping]] = ...) -> None: ...

class TraceStart(_message.Message):
    __slots__ = ("trace", "commands", "name", "round")
    TRACE_FIELD_NUMBER: _ClassVar[int]
    COMMANDS_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    trace: bytes
    commands: bytes
    name: str
    round: int
    def __init__(self, trace: _Optional[bytes] = ..., commands: _Optional[bytes] = ..., name: _Optional[str] = ..., round: _Optional[int] = ...) -> None: ...

class GetStateRequest(_message.Message):
    __slots__ = ("env_ids",)
    ENV_IDS_FIELD_NUMBER: _ClassVar[int]
    env_ids: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, env_ids: _Optional[_Iterable[int]] = ...) -> None: ...

class SetStateRequest(_message.Message):
    __slots__ = ("env_ids", "states")
    ENV_IDS_FIELD_NUMBER: _ClassVar[int]
    STATES_FIELD_NUMBER: _ClassVar[int]
    env_ids: _containers.RepeatedScalarFieldContainer[int]
    states: _containers.RepeatedScalarFieldContainer[bytes]
    def __init__(self, env_ids: _Optional[_Iterable[int]] = ..., states: _Optional[_Iterable[bytes]] = ...) -> None: ...

class StepRequest(_message.Message):
    __slots__ = ("env_ids", "actions", "action_order")
    ENV_IDS_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    ACTION_ORDER_FIELD_NUMBER: _ClassVar[int]
    env_ids: _containers.RepeatedScalarFieldContainer[int]
    actions: Tensor
    action_order: Tensor
    def __init__(self, env_ids: _Optional[_Iterable[int]] = ..., actions: _Optional[_Union[Tensor, _Mapping]] = ..., action_order: _Optional[_Union[Tensor, _Mapping]] = ...) -> None: ...

class StreamRequest(_message.Message):
    __slots__ = ("session_id", "reset", "step", "recv", "get_state", "set_state")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    RESET_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    RECV_FIELD_NUMBER: _ClassVar[int]
    GET_STATE_FIELD_NUMBER: _ClassVar[int]
    SET_STATE_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    reset: ResetRequest
    step: StepRequest
    recv: RecvRequest
    get_state: GetStateRequest
    set_state: SetStateRequest
    def __init__(self, session_id: _Optional[str] = ..., reset: _Optional[_Union[ResetRequest, _Mapping]] = ..., step: _Optional[_Union[StepRequest, _Mapping]] = ..., recv: _Optional[_Union[RecvRequest, _Mapping]] = ..., get_state: _Optional[_Union[GetStateRequest, _Mapping]] = ..., set_state: _Optional[_Union[SetStateRequest, _Mapping]] = ...) -> None: ...

class RecvRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Info(_message.Message):
    __slots__ = ("scores", "rank", "round", "learner_seats", "episode")
    SCORES_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    LEARNER_SEATS_FIELD_NUMBER: _ClassVar[int]
    EPISODE_FIELD_NUMBER: _ClassVar[int]
    scores: Tensor
    rank: Tensor
    round: Tensor
    learner_seats: Tensor
    episode: Tensor
    def __init__(self, scores: _Optional[_Union[Tensor, _Mapping]] = ..., rank: _Optional[_Union[Tensor, _Mapping]] = ..., round: _Optional[_Union[Tensor, _Mapping]] = ..., learner_seats: _Optional[_Union[Tensor, _Mapping]] = ..., episode: _Optional[_Union[Tensor, _Mapping]] = ...) -> None: ...

class StepResult(_message.Message):
    __slots__ = ("env_ids", "observation", "reward", "terminated", "truncated", "info", "final_observation", "final_env_index", "final_scores", "unit_rewards")
    class ObservationEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: Tensor
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[Tensor, _Mapping]] = ...) -> None: ...
    class FinalObservationEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: Tensor
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[Tensor, _Mapping]] = ...) -> None: ...
    ENV_IDS_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_FIELD_NUMBER: _ClassVar[int]
    REWARD_FIELD_NUMBER: _ClassVar[int]
    TERMINATED_FIELD_NUMBER: _ClassVar[int]
    TRUNCATED_FIELD_NUMBER: _ClassVar[int]
    INFO_FIELD_NUMBER: _ClassVar[int]
    FINAL_OBSERVATION_FIELD_NUMBER: _ClassVar[int]
    FINAL_ENV_INDEX_FIELD_NUMBER: _ClassVar[int]
    FINAL_SCORES_FIELD_NUMBER: _ClassVar[int]
    UNIT_REWARDS_FIELD_NUMBER: _ClassVar[int]
    env_ids: _containers.RepeatedScalarFieldContainer[int]
    observation: _containers.MessageMap[str, Tensor]
    reward: Tensor
    terminated: Tensor
    truncated: Tensor
    info: Info
    final_observation: _containers.MessageMap[str, Tensor]
    final_env_index: _containers.RepeatedScalarFieldContainer[int]
    final_scores: Tensor
    unit_rewards: Tensor
    def __init__(self, env_ids: _Optional[_Iterable[int]] = ..., observation: _Optional[_Mapping[str, Tensor]] = ..., reward: _Optional[_Union[Tensor, _Mapping]] = ..., terminated: _Optional[_Union[Tensor, _Mapping]] = ..., truncated: _Optional[_Union[Tensor, _Mapping]] = ..., info: _Optional[_Union[Info, _Mapping]] = ..., final_observation: _Optional[_Mapping[str, Tensor]] = ..., final_env_index: _Optional[_Iterable[int]] = ..., final_scores: _Optional[_Union[Tensor, _Mapping]] = ..., unit_rewards: _Optional[_Union[Tensor, _Mapping]] = ...) -> None: ...

class StreamResponse(_message.Message):
    __slots__ = ("result", "states")
    RESULT_FIELD_NUMBER: _ClassVar[int]
    STATES_FIELD_NUMBER: _ClassVar[int]
    result: StepResult
    states: _containers.RepeatedScalarFieldContainer[bytes]
    def __init__(self, result: _Optional[_Union[StepResult, _Mapping]] = ..., states: _Optional[_Iterable[bytes]] = ...) -> None: ...
